import type { IDataObject } from 'n8n-workflow';

import { useSandbox, type SandboxFixture } from '../../harness';
import { runNode } from '../supportTicketNode';
import {
	countListRounds,
	createTickets,
	createTicketsDuringRead,
	oldestFirstCalls,
	singles,
} from './listRounds';

// Options → Read From Both Ends: the newest end and the oldest end of the list read at once.
const BOTH_ENDS = { readFromBothEnds: true };

/** Ticket Get Many (Return All unless the parameters say otherwise): its items and list calls. */
async function readTickets({ sandbox, credentials }: SandboxFixture, parameters: IDataObject = {}) {
	sandbox.clearLog();
	const result = await runNode(
		{ resource: 'ticket', operation: 'getAll', returnAll: true, ...parameters },
		credentials,
	);
	if (result.error) throw result.error;
	const items = result.output('Node').map((item) => item.json);
	const calls = sandbox.countCalls({ method: 'GET', pathname: '/api/v1/external/tickets' });
	return { items, calls };
}

/** Each ticket once, and newest first (ties in any order). */
function expectEachOnceNewestFirst(items: IDataObject[]) {
	const ids = items.map((t) => t.id);
	expect(new Set(ids).size).toBe(ids.length);
	const times = items.map((t) => Date.parse(t.created_at as string));
	expect(times).toEqual([...times].sort((a, b) => b - a));
}

describe('Return All from both ends, 1,050 tickets (every 10th created_at shared by 3)', () => {
	const fixture = useSandbox({ seed: 1050 });
	const { sandbox } = fixture;
	afterEach(() => sandbox.setAnswerGate(undefined));

	it('the same items in the same order as one chain, in 7 round trips instead of 11', async () => {
		const oneChain = await readTickets(fixture);
		expect(oneChain.calls).toBe(11);
		const rounds = countListRounds(sandbox);
		const bothEnds = await readTickets(fixture, { options: BOTH_ENDS });
		expect(bothEnds.items).toEqual(oneChain.items);
		// The first page alone (a list of one page costs one call), then both ends at once; each end
		// asks for its next page without waiting for the other's, so one goes past where they meet.
		expect(rounds).toEqual([1, 2, 2, 2, 2, 2, 1]);
		expect(bothEnds.calls).toBe(12);
		expect(oldestFirstCalls(sandbox).map((e) => e.query.sort_by)).toEqual(
			new Array(5).fill('created_at'),
		);
	});

	it('a status filter: the oldest end sends it too; the same items as one chain', async () => {
		const filters = { status: 'open' };
		const oneChain = await readTickets(fixture, { filters });
		const bothEnds = await readTickets(fixture, { filters, options: BOTH_ENDS });
		expect(bothEnds.items).toEqual(oneChain.items);
		expect(bothEnds.calls).toBeLessThanOrEqual(oneChain.calls + 2);
		expect(oldestFirstCalls(sandbox).length).toBeGreaterThan(0);
		expect(sandbox.log.every((e) => e.query.status === 'open')).toBe(true);
	});

	const createdAfter = () => sandbox.store.listTickets()[499].created_at;
	it.each([
		['Sort By', () => ({ options: { sortBy: 'created_at' } })],
		['Sort Order', () => ({ options: { sortOrder: 'desc' } })],
		['Created After', () => ({ options: { createdAfter: createdAfter() } })],
		['a Limit', () => ({ returnAll: false, limit: 250 })],
	])('with %s, one chain as without the option', async (_name, parameters) => {
		const without = await readTickets(fixture, parameters());
		const rounds = countListRounds(sandbox, 50);
		const { options = {}, ...rest } = parameters() as IDataObject & { options?: IDataObject };
		const withIt = await readTickets(fixture, { ...rest, options: { ...options, ...BOTH_ENDS } });
		expect(withIt.items).toEqual(without.items);
		expect(withIt.calls).toBe(without.calls);
		expect(rounds).toEqual(new Array(without.calls).fill(1));
		expect(oldestFirstCalls(sandbox)).toHaveLength(0);
	});

	it('tickets created during the read: none twice, none there at the start missing', async () => {
		const atStart = sandbox.store.listTickets().map((t) => t.id);
		createTicketsDuringRead(sandbox, [2, 5, 8], 3);
		const { items } = await readTickets(fixture, { options: BOTH_ENDS });
		expect(sandbox.store.ticketCount).toBe(atStart.length + 9);
		expectEachOnceNewestFirst(items);
		expect(items.map((t) => t.id)).toEqual(expect.arrayContaining(atStart));
		expect(oldestFirstCalls(sandbox).length).toBeGreaterThan(0);
	});
});

// One chain reads each in ⌈n/100⌉ round trips; from both ends, rounds follow from where they meet.
describe.each([
	[
		'a created_at shared by 3 at the meeting point, read partly by each end',
		[...singles(180), ...new Array<number>(30).fill(3), 180, ...singles(150)],
		[1, 2, 2, 2],
	],
	[
		'a created_at shared by 140 that both ends reach in the same round',
		[...singles(180), 140, ...singles(180)],
		[1, 2, 2, 1],
	],
	['one created_at for all 350 tickets', [350], [1, 2, 1, 1]],
])('Return All from both ends: %s', (_name, groups, expectedRounds) => {
	const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
	const fixture = useSandbox({ now: () => clock.ms, maxSkewSeconds: 10 ** 9 });
	const { sandbox } = fixture;
	beforeAll(() => createTickets(sandbox, clock, groups));
	afterEach(() => sandbox.setAnswerGate(undefined));

	it('the same items in the same order as one chain, at most two calls more', async () => {
		const oneChain = await readTickets(fixture);
		const rounds = countListRounds(sandbox);
		const bothEnds = await readTickets(fixture, { options: BOTH_ENDS });
		expect(bothEnds.items).toEqual(oneChain.items);
		expectEachOnceNewestFirst(bothEnds.items);
		expect(rounds).toEqual(expectedRounds);
		expect(bothEnds.calls).toBeLessThanOrEqual(oneChain.calls + 2);
		expect(oldestFirstCalls(sandbox).length).toBeGreaterThan(0);
	});

	it('tickets created in the same instant during the read: none twice, none missing', async () => {
		const atStart = sandbox.store.listTickets().map((t) => t.id);
		createTicketsDuringRead(sandbox, [1, 2, 3], 5);
		const { items } = await readTickets(fixture, { options: BOTH_ENDS });
		expect(sandbox.store.ticketCount).toBe(atStart.length + 15);
		expectEachOnceNewestFirst(items);
		expect(items.map((t) => t.id)).toEqual(expect.arrayContaining(atStart));
		expect(oldestFirstCalls(sandbox).length).toBeGreaterThan(0);
	});
});

describe('Return All from both ends under a rate limit of 20 requests/s', () => {
	const fixture = useSandbox({ seed: 1050 });
	const { sandbox } = fixture;
	afterAll(() => sandbox.setFaults({}));

	it.each([
		['Return All', { returnAll: true }],
		['One Page per Run, 10 pages a run', { pagination: 'onePage', pagesPerRun: 10 }],
	])('%s: every ticket once, after waiting out the refusals', async (_name, paging) => {
		const oneChain = await readTickets(fixture);
		// No burst: the two ends' requests in flight at once are refused as the limit binds.
		sandbox.setFaults({ rateLimit: { perSecond: 20, burst: 1 } });
		const ids: unknown[] = [];
		let [cursor, refused, oldestFirst] = ['', 0, 0];
		for (let run = 0; run < 10; run++) {
			const { items } = await readTickets(fixture, { ...paging, cursor, options: BOTH_ENDS });
			refused += sandbox.log.filter((e) => e.status === 429).length;
			oldestFirst += oldestFirstCalls(sandbox).length;
			const page = items[0];
			if (!('has_more' in page)) {
				ids.push(...items.map((t) => t.id));
				break;
			}
			ids.push(...(page.data as IDataObject[]).map((t) => t.id));
			if (!page.has_more) break;
			cursor = page.next_cursor as string;
		}
		sandbox.setFaults({});
		expect([...ids].sort()).toEqual(oneChain.items.map((t) => t.id).sort());
		expect(refused).toBeGreaterThan(0);
		expect(oldestFirst).toBeGreaterThan(0);
	});
});
