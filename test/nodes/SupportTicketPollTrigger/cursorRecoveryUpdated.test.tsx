import type { IDataObject } from 'n8n-workflow';

import { chainWorkflow, createPoller, credentialsFor, workflowNode } from '../../harness';
import { startSandbox } from '../../../sandbox';

// Changed tickets move to the top of the unread stretch, emitted ones change again: every latest change once.
it('Updated Ticket: rejected backlog cursor while tickets change, every latest change once, none twice', async () => {
	const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
	const sandbox = await startSandbox({ seed: 300, now: () => clock.ms, maxSkewSeconds: 10 ** 9 });
	try {
		const trigger = workflowNode('On Update', 'n8n-nodes-support-ticket.supportTicketPollTrigger', {
			event: 'updatedTicket',
			options: { maxPagesPerPoll: 1 },
		});
		const credentials = { supportTicketApi: credentialsFor(sandbox) };
		const poller = await createPoller(chainWorkflow(trigger), credentials, 'On Update');
		clock.ms += 60_000;
		await poller.poll();

		const all = sandbox.store.listTickets({}).map((t) => t.id as string);
		const latest = new Map<string, string>();
		const update = (id: string, n: number) => {
			clock.ms += n % 5 === 0 ? 0 : 7;
			const t = sandbox.store.updateTicket(id, { subject: `change ${n}` }) as IDataObject;
			latest.set(id, String(t.updated_at));
		};
		all.slice(0, 250).forEach((id, n) => update(id, n));
		const emitted: Array<[string, string]> = [];
		const take = (items: Array<{ json: IDataObject }> | null) =>
			(items ?? []).forEach((i) => emitted.push([String(i.json.id), String(i.json.updated_at)]));
		take((await poller.poll()).items);
		expect(emitted).toHaveLength(100);

		sandbox.renewCursorKey();
		// Changed again: 10 already emitted (newest, top of the list) and 10 not yet read (oldest changes).
		const emittedIds = emitted.map(([id]) => id);
		const unread = all.slice(0, 250).filter((id) => !emittedIds.includes(id));
		[...emittedIds.slice(0, 10), ...unread.slice(0, 10)].forEach((id, n) => update(id, 1000 + n));
		for (let poll = 0; poll < 12; poll++) take((await poller.poll()).items);

		expect(sandbox.log.filter((entry) => entry.errorCode === 'invalid_cursor')).toHaveLength(1);
		const keys = emitted.map(([id, at]) => `${id}@${at}`);
		expect(keys.length - new Set(keys).size).toBe(0);
		const lastSeen = new Map(emitted);
		for (const [id, at] of latest) expect([id, lastSeen.get(id)]).toEqual([id, at]);
		expect(new Set(emitted.map(([id]) => id))).toEqual(new Set(latest.keys()));
	} finally {
		await sandbox.stop();
	}
});
