import type { IDataObject } from 'n8n-workflow';

import {
	chainWorkflow,
	createPoller,
	credentialsFor,
	workflowNode,
	type WorkflowJson,
} from '../../harness';
import { startSandbox, type Sandbox } from '../../../sandbox';
import { byId, NODE, POLL_TRIGGER } from '../supportTicketNode';

/** Poll Trigger → Support Ticket (get each ticket again): proves the items run the workflow. */
function pollWorkflow(parameters: IDataObject, withGet = true): WorkflowJson {
	const trigger = workflowNode('On New', POLL_TRIGGER, parameters);
	const get = workflowNode(
		'Get Ticket',
		NODE,
		{ resource: 'ticket', operation: 'get', ticketId: byId('={{ $json.id }}') },
		{ position: [220, 0] },
	);
	return withGet ? chainWorkflow(trigger, get) : chainWorkflow(trigger);
}

/** A sandbox whose clock the test moves, so several records can share one timestamp. */
async function sandboxWithClock(seed: number) {
	const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
	const sandbox = await startSandbox({ seed, now: () => clock.ms, maxSkewSeconds: 10 ** 9 });
	return { sandbox, clock, credentials: { supportTicketApi: credentialsFor(sandbox) } };
}

function newTicket(sandbox: Sandbox, n: number, extra: IDataObject = {}) {
	return sandbox.store.createTicket({
		subject: `Poll ${n}`,
		description: 'd',
		customer: { email: `poll${n}@example.com` },
		...extra,
	});
}

/** A poller of `pollWorkflow(...)` against the sandbox of `env`. */
const startPoller = (...args: Parameters<typeof pollWorkflow>) =>
	createPoller(pollWorkflow(...args), env.credentials, 'On New');

const ids = (items: Array<{ json: IDataObject }> | null) =>
	(items ?? []).map((item) => item.json.id as string);

let env: Awaited<ReturnType<typeof sandboxWithClock>>;

describe('Support Ticket Poll Trigger: New Ticket', () => {
	beforeEach(async () => (env = await sandboxWithClock(30)));
	afterEach(async () => env.sandbox.stop());

	it('first poll records the starting point; later polls emit each new ticket once, oldest first, and run the workflow', async () => {
		const poller = await startPoller({ event: 'newTicket' });
		expect((await poller.poll()).items).toBeNull();

		const created: string[] = [];
		for (let n = 0; n < 3; n++) {
			env.clock.ms += 1000;
			created.push(newTicket(env.sandbox, n).id);
		}
		const second = await poller.poll();
		expect(ids(second.items)).toEqual(created);
		expect(second.execution?.error).toBeUndefined();
		expect(second.execution?.output('Get Ticket').map((item) => item.json.id)).toEqual(created);

		expect((await poller.poll()).items).toBeNull();
	});

	// Tickets sharing a created_at: changeFeed.test.tsx, in every timestamp form; a backlog over
	// several polls: the next test and changeFeed.test.tsx.
	it('a backlog cursor the service no longer accepts (restart, new cursor key): that stretch is read again from the top, none lost or repeated, and polling goes on', async () => {
		const poller = await startPoller(
			{ event: 'newTicket', options: { maxPagesPerPoll: 1 } },
			false,
		);
		await poller.poll();
		const created: string[] = [];
		for (let n = 0; n < 250; n++) {
			env.clock.ms += n % 7 === 0 ? 0 : 10; // some share a created_at, also across page ends
			created.push(newTicket(env.sandbox, n).id);
		}
		const seen = ids((await poller.poll()).items);
		expect(seen).toHaveLength(100);
		expect(poller.staticData).toMatchObject({
			'node:On New': { pollState: { pass: { cursor: expect.any(String) } } },
		});

		env.sandbox.renewCursorKey();
		for (let n = 250; n < 255; n++) {
			env.clock.ms += 10;
			created.push(newTicket(env.sandbox, n).id);
		}
		const warnings: string[] = [];
		for (let poll = 0; poll < 10 && seen.length < created.length; poll++) {
			const outcome = await poller.poll();
			warnings.push(...outcome.warnings);
			seen.push(...ids(outcome.items));
		}
		expect(seen).toHaveLength(created.length);
		expect(new Set(seen)).toEqual(new Set(created));
		expect(warnings).toEqual([
			expect.stringMatching(/rejected the saved page cursor .*read again from the newest/),
		]);
		expect(env.sandbox.log.filter((entry) => entry.errorCode === 'invalid_cursor')).toHaveLength(1);

		env.clock.ms += 10;
		const later = newTicket(env.sandbox, 999).id;
		expect(ids((await poller.poll()).items)).toEqual([later]);
		expect((await poller.poll()).items).toBeNull();
	});

	it('filters: only matching tickets; changing the filter starts afresh instead of reusing cursors', async () => {
		const urgentOnly = await startPoller(
			{ event: 'newTicket', filters: { priority: 'urgent' } },
			false,
		);
		await urgentOnly.poll();
		env.clock.ms += 1000;
		const urgent = newTicket(env.sandbox, 1, { priority: 'urgent' }).id;
		newTicket(env.sandbox, 2, { priority: 'low' });
		expect(ids((await urgentOnly.poll()).items)).toEqual([urgent]);
		const listCalls = env.sandbox.log.filter((entry) => entry.pathname.endsWith('/tickets'));
		expect(listCalls.every((entry) => entry.query.priority === 'urgent')).toBe(true);

		const lowOnly = await createPoller(
			{
				...pollWorkflow({ event: 'newTicket', filters: { priority: 'low' } }, false),
				staticData: urgentOnly.staticData,
			},
			env.credentials,
			'On New',
		);
		expect((await lowOnly.poll()).items).toBeNull();
	});

	it('Emit Existing Items on First Poll emits every existing ticket once', async () => {
		const poller = await startPoller(
			{ event: 'newTicket', options: { emitExisting: true } },
			false,
		);
		const first = await poller.poll();
		expect(first.items).toHaveLength(env.sandbox.store.ticketCount);
		expect(new Set(ids(first.items)).size).toBe(env.sandbox.store.ticketCount);
		expect((await poller.poll()).items).toBeNull();
	});
});

describe('Support Ticket Poll Trigger: New Customer', () => {
	beforeEach(async () => (env = await sandboxWithClock(20)));
	afterEach(async () => env.sandbox.stop());

	it('New Customer emits customers created between polls', async () => {
		const poller = await startPoller({ event: 'newCustomer' }, false);
		await poller.poll();
		env.clock.ms += 1000;
		const c1 = env.sandbox.store.createCustomer({ email: 'c1@example.com' }).id;
		const c2 = env.sandbox.store.createCustomer({ email: 'c2@example.com' }).id;
		expect(ids((await poller.poll()).items)).toEqual([c1, c2]);
		expect((await poller.poll()).items).toBeNull();
	});
});
