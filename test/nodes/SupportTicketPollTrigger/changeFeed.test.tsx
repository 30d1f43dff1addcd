import type { IDataObject } from 'n8n-workflow';

import {
	chainWorkflow,
	createPoller,
	credentialsFor,
	workflowNode,
	type Poller,
} from '../../harness';
import { startSandbox, type Sandbox, type TimestampFormat } from '../../../sandbox';
import { POLL_TRIGGER } from '../supportTicketNode';

// The poll trigger as a change feed under coarse timestamps, late commits, a service clock off from n8n's, a service
// ignoring sort_by. The test sets both clocks: `n8n` is n8n's time, `offset` how far the service's is ahead.
const START = Date.parse('2026-11-01T09:00:00.200Z');
const MINUTE = 60_000;

interface Env {
	sandbox: Sandbox;
	clock: { n8n: number; offset: number };
	poller(parameters: IDataObject, staticData?: IDataObject): Promise<Poller>;
}

async function environment(
	options: { seed?: number; timestampFormat?: TimestampFormat; offset?: number } = {},
): Promise<Env> {
	const clock = { n8n: START, offset: options.offset ?? 0 };
	const sandbox = await startSandbox({
		seed: options.seed ?? 20,
		timestampFormat: options.timestampFormat,
		now: () => clock.n8n + clock.offset,
		maxSkewSeconds: 10 ** 9,
	});
	jest.spyOn(Date, 'now').mockImplementation(() => clock.n8n);
	const credentials = { supportTicketApi: credentialsFor(sandbox) };
	return {
		sandbox,
		clock,
		poller: (parameters, staticData) =>
			createPoller(
				{ ...chainWorkflow(workflowNode('On Change', POLL_TRIGGER, parameters)), staticData },
				credentials,
				'On Change',
			),
	};
}

/** GET requests of the tickets or customers list since the log was last cleared. */
const listCalls = (list: 'tickets' | 'customers') =>
	env.sandbox.countCalls({ method: 'GET', pathname: `/api/v1/external/${list}` });

/** What the trigger keeps between polls. */
const pollState = <T,>(poller: Poller) =>
	(poller.staticData['node:On Change'] as { pollState: T }).pollState;

type Items = Array<{ json: IDataObject }> | null;
const ids = (items: Items) => (items ?? []).map((item) => String(item.json.id));
const states = (items: Items, field: string) =>
	(items ?? []).map((item) => [String(item.json.id), item.json[field]]);

let env: Env;
afterEach(async () => {
	jest.restoreAllMocks();
	await env?.sandbox.stop();
});

/** A poller of `parameters` that has made its first poll (the starting point, nothing emitted). */
async function started(parameters: IDataObject, options?: Parameters<typeof environment>[0]) {
	env = await environment(options);
	const poller = await env.poller(parameters);
	expect((await poller.poll()).items).toBeNull();
	return poller;
}

function createTicket(n: number): string {
	return env.sandbox.store.createTicket({
		subject: `Change ${n}`,
		description: 'd',
		customer: { email: `change${n}@example.com` },
	}).id;
}

it('Updated Ticket: a change is identified by what changed, not only by when: a ticket changed many times within one second: each change polled comes out once, in the state it had', async () => {
	const poller = await started({ event: 'updatedTicket' }, { timestampFormat: 'epoch-seconds' });
	const ticket = env.sandbox.store.listTickets({})[3].id as string;
	env.clock.n8n += 10_000;
	const emitted: unknown[] = [];
	for (let n = 0; n < 8; n++) {
		env.clock.n8n += 100; // 8 changes within 0.8 s
		env.sandbox.store.updateTicket(ticket, { subject: `take ${n}` });
		if (n % 2 === 1) emitted.push(...states((await poller.poll()).items, 'subject'));
	}
	// Polled after every second change: four states, each once, the last one the ticket's own.
	expect(emitted).toEqual([1, 3, 5, 7].map((n) => [ticket, `take ${n}`]));
	expect((await poller.poll()).items).toBeNull();
});

// created_at in every form a service may send: ISO, with or without a zone (UTC), Unix seconds or milliseconds.
describe.each<TimestampFormat | undefined>([
	undefined,
	'epoch-seconds',
	'epoch-milliseconds',
	'iso-without-zone',
])('emission order, created_at as %s', (timestampFormat) => {
	it('oldest first; of tickets sharing a created_at, the one created first (what the e2e poll case checks in real n8n); one later in the same second comes next', async () => {
		const poller = await started({ event: 'newTicket' }, { timestampFormat });
		env.clock.n8n += MINUTE;
		const created = [createTicket(1), createTicket(2)];
		env.clock.n8n += 1000;
		created.push(createTicket(3));
		const first = (await poller.poll()).items;
		expect(ids(first)).toEqual(created);
		const numeric = timestampFormat?.startsWith('epoch') ?? false;
		expect(typeof first?.[0].json.created_at).toBe(numeric ? 'number' : 'string');

		env.clock.n8n += 400; // within the second of the newest seen
		const sameSecond = createTicket(4);
		env.clock.n8n += 2000;
		const later = createTicket(5);
		expect(ids((await poller.poll()).items)).toEqual([sameSecond, later]);
		expect((await poller.poll()).items).toBeNull();
	});
});

describe('records that become visible below the newest timestamp seen (overlap window)', () => {
	it('New Ticket: a late commit a few seconds below the newest is emitted; one beyond the window is not (the documented limit)', async () => {
		const poller = await started({ event: 'newTicket' });
		env.clock.n8n += MINUTE;
		const first = createTicket(1);
		expect(ids((await poller.poll()).items)).toEqual([first]);

		// Another app server commits a ticket stamped 4 s earlier, visible only now.
		env.clock.n8n -= 4_000;
		const late = createTicket(2);
		env.clock.n8n += 4_000;
		expect(ids((await poller.poll()).items)).toEqual([late]);

		// Inside the window (4 min late) and outside it (6 min late).
		env.clock.n8n -= 4 * MINUTE;
		const inside = createTicket(3);
		env.clock.n8n -= 2 * MINUTE;
		const outside = createTicket(4);
		env.clock.n8n += 6 * MINUTE + 1000;
		const next = createTicket(5);
		expect(ids((await poller.poll()).items)).toEqual([inside, next]);
		expect(outside).toBeDefined();
		expect((await poller.poll()).items).toBeNull();
	});

	it('Updated Ticket: a change committed late inside the window is emitted, unchanged records in the window are not repeated', async () => {
		const poller = await started({ event: 'updatedTicket', options: { overlapMinutes: 2 } });
		const [a, b] = env.sandbox.store
			.listTickets({})
			.slice(8, 10)
			.map((t) => t.id as string);
		env.clock.n8n += MINUTE;
		env.sandbox.store.updateTicket(a, { status: 'pending' });
		expect(ids((await poller.poll()).items)).toEqual([a]);
		env.clock.n8n -= 90_000; // 1.5 min late: inside the 2-minute window
		env.sandbox.store.updateTicket(b, { status: 'pending' });
		env.clock.n8n += 90_000;
		expect(ids((await poller.poll()).items)).toEqual([b]);
		env.clock.n8n -= 3 * MINUTE; // 3 min late: outside it
		env.sandbox.store.updateTicket(b, { status: 'solved' });
		env.clock.n8n += 3 * MINUTE;
		expect((await poller.poll()).items).toBeNull();
	});

	it('a service clock that ran 1 h ahead and was set back, polls 15 minutes apart: every ticket created after the correction is emitted', async () => {
		const poller = await started({ event: 'newTicket' }, { offset: 60 * MINUTE });
		env.clock.n8n += 15 * MINUTE;
		const ahead = createTicket(1);
		expect(ids((await poller.poll()).items)).toEqual([ahead]);

		env.clock.offset = 0; // the service's clock is corrected
		const after: string[] = [];
		let minute = 0;
		for (const at of [1, 7, 14]) {
			env.clock.n8n += (at - minute) * MINUTE;
			minute = at;
			after.push(createTicket(at));
		}
		env.clock.n8n += (15 - minute) * MINUTE; // the next poll, 15 minutes after the last
		expect(ids((await poller.poll()).items)).toEqual(after);
		expect((await poller.poll()).items).toBeNull();
	});

	describe.each([
		['ahead of', 3 * MINUTE],
		['behind', -3 * MINUTE],
	])("a service clock running 3 min %s n8n's, with late commits inside the window", (_, offset) => {
		it('every change comes out once, in its latest state', async () => {
			const poller = await started({ event: 'updatedTicket' }, { offset });
			const tickets = env.sandbox.store.listTickets({}).map((t) => t.id as string);
			const latest = new Map<string, string>();
			const emitted: string[] = [];
			for (let round = 0; round < 6; round++) {
				for (let k = 0; k < 4; k++) {
					env.clock.n8n += 7_000;
					const late = k === 2 ? 2 * MINUTE : 0; // one change per round committed 2 min late
					env.clock.n8n -= late;
					const id = tickets[(round * 3 + k) % tickets.length];
					latest.set(
						id,
						String(env.sandbox.store.updateTicket(id, { subject: `round ${round} ${k}` }).subject),
					);
					env.clock.n8n += late;
				}
				for (const item of (await poller.poll()).items ?? [])
					emitted.push(`${String(item.json.id)} ${String(item.json.subject)}`);
			}
			expect(emitted.length).toBe(new Set(emitted).size);
			for (const [id, subject] of latest) expect(emitted).toContain(`${id} ${subject}`);
			expect((await poller.poll()).items).toBeNull();
		});
	});
});

it('the order of every page is checked: a service that ignores sort_by: Updated Ticket fails naming the problem, instead of missing updates; New Ticket works (it relies on the default order only)', async () => {
	env = await environment({ seed: 150 });
	env.sandbox.store.listQuirks.ignoreSortBy = true;
	const updated = await env.poller({ event: 'updatedTicket' });
	await expect(updated.poll()).rejects.toThrow(/The service does not sort tickets by updated_at/);
	await expect(updated.poll()).rejects.toMatchObject({
		description: expect.stringMatching(/Support Ticket Trigger \(webhooks\).*New Ticket/),
	});
	const created = await env.poller({ event: 'newTicket' });
	await created.poll();
	env.clock.n8n += MINUTE;
	const id = createTicket(1);
	expect(ids((await created.poll()).items)).toEqual([id]);
});

describe('a backlog bigger than one poll', () => {
	it.each([
		['within 3 seconds (all inside the window)', 3],
		['over 66 minutes (n8n was down; most below the window)', 4_000],
	])(
		'1,000 tickets changed %s, Max Pages per Poll 1, while tickets keep changing: every latest state once, none twice, one call per poll',
		async (_, spacing) => {
			const poller = await started(
				{ event: 'updatedTicket', options: { maxPagesPerPoll: 1 } },
				{ seed: 1000 },
			);
			const tickets = env.sandbox.store.listTickets({}).map((t) => t.id as string);
			const latest = new Map<string, string>();
			let step = spacing;
			const change = (id: string, text: string) => {
				env.clock.n8n += step;
				latest.set(id, String(env.sandbox.store.updateTicket(id, { subject: text }).updated_at));
			};
			tickets.forEach((id, n) => change(id, `bulk ${n}`));
			step = 3_000; // between polls
			const emitted: string[] = [];
			for (let poll = 0; poll < 40; poll++) {
				env.sandbox.clearLog();
				const outcome = await poller.poll();
				expect(listCalls('tickets')).toBe(1);
				for (const item of outcome.items ?? [])
					emitted.push(`${String(item.json.id)} ${String(item.json.updated_at)}`);
				// Keep changing: tickets already emitted and tickets not read yet.
				if (poll < 8)
					for (let k = 0; k < 5; k++)
						change(tickets[(poll * 97 + k * 131) % tickets.length], `again ${poll} ${k}`);
			}
			expect(emitted.length - new Set(emitted).size).toBe(0);
			for (const [id, at] of latest) expect(emitted).toContain(`${id} ${at}`);
			expect((await poller.poll()).items).toBeNull();
		},
	);
});

describe('Updated Customer', () => {
	it('emits customers created or changed since the last poll, by a full scan (one call per 100 customers)', async () => {
		env = await environment({ seed: 600 }); // 120 customers
		const poller = await env.poller({ event: 'updatedCustomer' });
		expect((await poller.poll()).items).toBeNull();
		const customers = env.sandbox.store.listCustomers();
		env.clock.n8n += MINUTE;
		env.sandbox.store.updateCustomer(customers[110].id, { name: 'Renamed' });
		env.clock.n8n += 1000;
		const created = env.sandbox.store.createCustomer({ email: 'new.customer@example.com' }).id;
		env.sandbox.clearLog();
		expect(states((await poller.poll()).items, 'name')).toEqual([
			[customers[110].id, 'Renamed'],
			[created, null],
		]);
		expect(listCalls('customers')).toBe(2);
		expect((await poller.poll()).items).toBeNull();
		const state = pollState<{ known: unknown[] }>(poller);
		expect(state.known).toHaveLength(env.sandbox.store.customerCount);
		const bytes = JSON.stringify(state).length;
		expect(bytes / state.known.length).toBeLessThan(36);
	});

	it('a scan over several polls (Max Pages per Poll 1, 350 customers): a change on a page not yet read at activation is emitted, nothing before it; later changes once each, unchanged customers never', async () => {
		env = await environment({ seed: 1750 }); // 350 customers: four pages
		const customers = env.sandbox.store.listCustomers();
		const poller = await env.poller({ event: 'updatedCustomer', options: { maxPagesPerPoll: 1 } });
		expect((await poller.poll()).items).toBeNull();
		const renamedOverFourPolls = async (name: string, changed: number[]) => {
			env.clock.n8n += MINUTE;
			for (const n of changed) env.sandbox.store.updateCustomer(customers[n].id, { name });
			const emitted: unknown[] = [];
			for (let poll = 0; poll < 4; poll++)
				emitted.push(...states((await poller.poll()).items, 'name'));
			expect(emitted.sort()).toEqual(changed.map((n) => [customers[n].id, name]).sort());
		};
		await renamedOverFourPolls('After activation', [340]);
		await renamedOverFourPolls('Later', [5, 115, 340]);
	});
});

describe('bounded state and calls', () => {
	it('a busy window (1,000 ticket changes in 5 minutes): the state holds one small entry per record in it, each poll reads it in ⌈(n + 1) / 100⌉ calls', async () => {
		const poller = await started(
			{ event: 'updatedTicket', options: { maxPagesPerPoll: 20 } },
			{ seed: 1200 },
		);
		const tickets = env.sandbox.store.listTickets({}).map((t) => t.id as string);
		env.clock.n8n += 10 * MINUTE;
		for (let n = 0; n < 1000; n++) {
			env.clock.n8n += 280; // 1,000 changes over 4 min 40 s
			env.sandbox.store.updateTicket(tickets[n], { status: n % 2 ? 'pending' : 'solved' });
		}
		expect((await poller.poll()).items).toHaveLength(1000);
		env.sandbox.clearLog();
		expect((await poller.poll()).items).toBeNull();
		expect(listCalls('tickets')).toBe(11);
		const state = pollState<{ window: unknown[] }>(poller);
		expect(state.window).toHaveLength(1000);
		const bytes = JSON.stringify(state).length;
		expect(bytes).toBeLessThan(1000 * 48);

		// The window hangs below the newest change: the next change 10 minutes later leaves the 1,000 behind.
		env.clock.n8n += 10 * MINUTE;
		env.sandbox.store.updateTicket(tickets[1100], { status: 'closed' });
		expect(ids((await poller.poll()).items)).toEqual([tickets[1100]]);
		env.sandbox.clearLog();
		expect((await poller.poll()).items).toBeNull();
		expect(listCalls('tickets')).toBe(1);
		expect(pollState<{ window: unknown[] }>(poller).window).toHaveLength(1);
	});

	it('the order is checked across pages too: a page that starts newer than the last one ended fails the poll', async () => {
		env = await environment({ seed: 0 });
		const created: string[] = [];
		for (let n = 0; n < 150; n++) {
			env.clock.n8n += 10;
			created.push(createTicket(n));
		}
		const poller = await env.poller({ event: 'updatedTicket' });
		await poller.poll();
		env.sandbox.store.listQuirks.ignoreSortBy = true;
		env.clock.n8n += 1000;
		// In created_at order (what the service now answers) this ticket is first on page 2; page 1 is still in order.
		env.sandbox.store.updateTicket(created[49], { status: 'closed' });
		await expect(poller.poll()).rejects.toThrow(/does not sort tickets by updated_at/);
	});
});
