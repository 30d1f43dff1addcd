import type { IDataObject } from 'n8n-workflow';

import {
	createPoller,
	credentialsFor,
	itemsWorkflow,
	listSearch,
	runWorkflow,
	useSandbox,
	workflowNode,
	chainWorkflow,
} from '../../../harness';
import { startSandbox } from '../../../../sandbox';
import { NODE, POLL_TRIGGER, runNode } from '../../supportTicketNode';

// has_more without a next_cursor: whoever needs the rest gets an error, not a list that looks complete; whoever
// already has what was asked for (a Limit, Created After, the poll's watermark) gets it without one.
const TICKETS = 250;
const { sandbox, credentials } = useSandbox({ seed: TICKETS });

const MESSAGE = 'The service reported more items but gave no cursor to read them';

const getMany = (parameters: IDataObject) =>
	runNode({ resource: 'ticket', operation: 'getAll', ...parameters }, credentials);

describe('Get Many, Handled by the Node', () => {
	it('has_more "true" as text, with a cursor, goes on to the next page: Return All brings every ticket', async () => {
		sandbox.setResponseShape({ hasMoreAsText: true });
		const result = await getMany({ returnAll: true });
		expect(result.output('Node')).toHaveLength(TICKETS);
		expect(sandbox.log.map((entry) => entry.status)).toEqual([200, 200, 200]);
	});

	it.each([
		['null', false],
		['missing', false],
		['empty', false],
		['null', true],
	] as const)(
		'Return All, next_cursor %s (has_more as text: %s): an error naming the items read, after one call',
		async (lost, hasMoreAsText) => {
			sandbox.setResponseShape({ hasMoreWithoutCursor: lost, hasMoreAsText });
			const result = await getMany({ returnAll: true });
			expect(result.error?.message).toBe(MESSAGE);
			expect(result.error?.description).toBe(
				'Reading stopped after 100 items rather than return an incomplete list. This is a fault of the service; try again later.',
			);
			expect(sandbox.log.map((entry) => entry.status)).toEqual([200]);
		},
	);

	it('Limit reached on that page: the items and no error; Limit beyond it: the error for that item', async () => {
		sandbox.setResponseShape({ hasMoreWithoutCursor: 'null' });
		const result = await runWorkflow(
			itemsWorkflow([{ limit: 100 }, { limit: 150 }], NODE, {
				resource: 'ticket',
				operation: 'getAll',
				limit: '={{ $json.limit }}',
			}),
			{ supportTicketApi: credentials },
		);
		expect(result.error?.message).toBe(MESSAGE);
		expect((result.error as unknown as { context: IDataObject }).context.itemIndex).toBe(1);

		sandbox.clearLog();
		const enough = await getMany({ limit: 100 });
		expect(enough.error).toBeUndefined();
		const newest = sandbox.store.listTickets().map((t) => t.id);
		expect(enough.output('Node').map((item) => item.json.id)).toEqual(newest.slice(0, 100));
		expect(sandbox.log).toHaveLength(1);
	});

	it('Created After passed on that page: the items and no error', async () => {
		const newest = sandbox.store.listTickets();
		sandbox.setResponseShape({ hasMoreWithoutCursor: 'null' });
		const result = await getMany({
			returnAll: true,
			options: { createdAfter: newest[39].created_at },
		});
		expect(result.error).toBeUndefined();
		const expected = newest.filter((t) => t.created_at >= newest[39].created_at).map((t) => t.id);
		expect(result.output('Node').map((item) => item.json.id)).toEqual(expected);
	});
});

it('Get Many, One Page per Run: a page that says more without a cursor is an error, not has_more false', async () => {
	sandbox.setResponseShape({ hasMoreWithoutCursor: 'missing' });
	const result = await getMany({ pagination: 'onePage', pageSize: 40 });
	expect(result.error?.message).toBe(MESSAGE);
	expect(result.error?.description).toMatch(
		/^Reading stopped after 40 items rather than return an incomplete list\./,
	);
});

it('"From list" picker: an error instead of a list that cannot be scrolled on', async () => {
	sandbox.setResponseShape({ hasMoreWithoutCursor: 'null' });
	await expect(
		listSearch(NODE, 'searchTickets', { supportTicketApi: credentials }),
	).rejects.toThrow(MESSAGE);
});

it('Poll Trigger: fails the poll, saving nothing, when it needs the rest; a manual run, the first poll and a poll that reaches the watermark on that page work', async () => {
	const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
	const service = await startSandbox({ seed: 120, now: () => clock.ms, maxSkewSeconds: 10 ** 9 });
	try {
		const trigger = workflowNode('On New', POLL_TRIGGER, { event: 'newTicket' });
		const poller = await createPoller(
			chainWorkflow(trigger),
			{ supportTicketApi: credentialsFor(service) },
			'On New',
		);
		const create = (count: number) =>
			Array.from({ length: count }, (_, n) => {
				clock.ms += 1000;
				return service.store.createTicket({
					subject: `New ${n}`,
					description: 'd',
					customer: { email: `new${n}@example.com` },
				}).id;
			});
		service.setResponseShape({ hasMoreWithoutCursor: 'null' });
		const manual = await runWorkflow(
			chainWorkflow(trigger),
			{ supportTicketApi: credentialsFor(service) },
			{ nodeName: 'On New' },
		);
		expect(manual.error).toBeUndefined();
		expect(manual.output('On New').map((item) => item.json.id)).toEqual([
			service.store.listTickets()[0].id,
		]);
		expect((await poller.poll()).items).toBeNull();

		const few = create(3);
		expect((await poller.poll()).items?.map((item) => item.json.id)).toEqual(few);

		const many = create(150);
		const saved = JSON.stringify(poller.staticData);
		await expect(poller.poll()).rejects.toThrow(MESSAGE);
		expect(JSON.stringify(poller.staticData)).toBe(saved);

		service.setResponseShape({});
		expect((await poller.poll()).items?.map((item) => item.json.id)).toEqual(many);
	} finally {
		await service.stop();
	}
});
