import type { IDataObject, INode } from 'n8n-workflow';

import { chainWorkflow, createPoller, credentialsFor, workflowNode } from '../../harness';
import { startSandbox, type Sandbox } from '../../../sandbox';
import { POLL_TRIGGER } from '../supportTicketNode';

let env: { sandbox: Sandbox; clock: { ms: number } };
// A sandbox whose clock the test moves, so several records can share one timestamp.
beforeEach(async () => {
	const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
	env = {
		clock,
		sandbox: await startSandbox({ seed: 30, now: () => clock.ms, maxSkewSeconds: 10 ** 9 }),
	};
});
afterEach(async () => env.sandbox.stop());

/** A poller of the trigger with `parameters`, then `next` nodes, against the sandbox of `env`. */
const startPoller = (parameters: IDataObject, staticData?: IDataObject, ...next: INode[]) =>
	createPoller(
		{ ...chainWorkflow(workflowNode('On New', POLL_TRIGGER, parameters), ...next), staticData },
		{ supportTicketApi: credentialsFor(env.sandbox) },
		'On New',
	);

const newTicket = (n: number, extra: IDataObject = {}) =>
	env.sandbox.store.createTicket({
		subject: `Poll ${n}`,
		description: 'd',
		customer: { email: `poll${n}@example.com` },
		...extra,
	});

const ids = (items: Array<{ json: IDataObject }> | null) =>
	(items ?? []).map((item) => item.json.id as string);

describe('Support Ticket Poll Trigger: New Ticket', () => {
	// First poll, then each new ticket once, oldest first, running the workflow: test/e2e/pollCases.tsx in real n8n.
	// Tickets sharing a created_at: changeFeed.test.tsx, in every timestamp form; a backlog over
	// several polls: the next test and changeFeed.test.tsx.
	it('a backlog cursor the service no longer accepts (restart, new cursor key): that stretch is read again from the top, none lost or repeated, and polling goes on', async () => {
		const poller = await startPoller({ event: 'newTicket', options: { maxPagesPerPoll: 1 } });
		await poller.poll();
		const created: string[] = [];
		for (let n = 0; n < 250; n++) {
			env.clock.ms += n % 7 === 0 ? 0 : 10; // some share a created_at, also across page ends
			created.push(newTicket(n).id);
		}
		const seen = ids((await poller.poll()).items);
		expect(seen).toHaveLength(100);
		expect(poller.staticData).toMatchObject({
			'node:On New': { pollState: { pass: { cursor: expect.any(String) } } },
		});

		env.sandbox.renewCursorKey();
		for (let n = 250; n < 255; n++) {
			env.clock.ms += 10;
			created.push(newTicket(n).id);
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
		const later = newTicket(999).id;
		expect(ids((await poller.poll()).items)).toEqual([later]);
		expect((await poller.poll()).items).toBeNull();
	});

	it('filters: only matching tickets; changing the filter starts afresh instead of reusing cursors', async () => {
		const urgentOnly = await startPoller({ event: 'newTicket', filters: { priority: 'urgent' } });
		await urgentOnly.poll();
		env.clock.ms += 1000;
		const urgent = newTicket(1, { priority: 'urgent' }).id;
		newTicket(2, { priority: 'low' });
		expect(ids((await urgentOnly.poll()).items)).toEqual([urgent]);
		const listCalls = env.sandbox.log.filter((entry) => entry.pathname.endsWith('/tickets'));
		expect(listCalls.every((entry) => entry.query.priority === 'urgent')).toBe(true);

		const lowOnly = await startPoller(
			{ event: 'newTicket', filters: { priority: 'low' } },
			urgentOnly.staticData,
		);
		expect((await lowOnly.poll()).items).toBeNull();
	});

	it('Emit Existing Items on First Poll emits every existing ticket once', async () => {
		const poller = await startPoller({ event: 'newTicket', options: { emitExisting: true } });
		const first = await poller.poll();
		expect(first.items).toHaveLength(env.sandbox.store.ticketCount);
		expect(new Set(ids(first.items)).size).toBe(env.sandbox.store.ticketCount);
		expect((await poller.poll()).items).toBeNull();
	});
});

it('Support Ticket Poll Trigger: New Customer: emits customers created between polls', async () => {
	const poller = await startPoller({ event: 'newCustomer' });
	await poller.poll();
	env.clock.ms += 1000;
	const c1 = env.sandbox.store.createCustomer({ email: 'c1@example.com' }).id;
	const c2 = env.sandbox.store.createCustomer({ email: 'c2@example.com' }).id;
	expect(ids((await poller.poll()).items)).toEqual([c1, c2]);
	expect((await poller.poll()).items).toBeNull();
});
