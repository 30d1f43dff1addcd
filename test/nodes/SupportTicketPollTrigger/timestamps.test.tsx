import type { IDataObject } from 'n8n-workflow';

import { chainWorkflow, createPoller, credentialsFor, workflowNode } from '../../harness';
import { startSandbox, type TimestampFormat } from '../../../sandbox';

// created_at in every form a service may send: ISO with or without a zone (UTC), Unix seconds or milliseconds.
const trigger = workflowNode('On New', 'n8n-nodes-support-ticket.supportTicketPollTrigger', {
	event: 'newTicket',
});

const ids = (items: Array<{ json: IDataObject }> | null) =>
	(items ?? []).map((item) => item.json.id as string);

describe.each<TimestampFormat>(['epoch-seconds', 'epoch-milliseconds', 'iso-without-zone'])(
	'New Ticket polls a service that sends created_at as %s',
	(format) => {
		it('emits each new ticket once, oldest first, including two in the same second', async () => {
			const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
			const sandbox = await startSandbox({
				seed: 15,
				timestampFormat: format,
				now: () => clock.ms,
				maxSkewSeconds: 10 ** 9,
			});
			const credentials = { supportTicketApi: credentialsFor(sandbox) };
			const create = (n: number) =>
				sandbox.store.createTicket({
					subject: `T ${n}`,
					description: 'd',
					customer: { email: `t${n}@example.com` },
				}).id;
			try {
				const poller = await createPoller(chainWorkflow(trigger), credentials, 'On New');
				expect((await poller.poll()).items).toBeNull();

				clock.ms += 1000;
				const first = [create(1), create(2)];
				const firstPoll = await poller.poll();
				expect(firstPoll.execution?.error).toBeUndefined();
				expect(ids(firstPoll.items).sort()).toEqual([...first].sort());
				expect(typeof firstPoll.items?.[0].json.created_at).toBe(
					format === 'iso-without-zone' ? 'string' : 'number',
				);

				// One more within the same second (same created_at in seconds), one later.
				clock.ms += 400;
				const sameSecond = create(3);
				clock.ms += 2000;
				const later = create(4);
				expect(ids((await poller.poll()).items)).toEqual([sameSecond, later]);
				expect((await poller.poll()).items).toBeNull();
			} finally {
				await sandbox.stop();
			}
		});
	},
);
