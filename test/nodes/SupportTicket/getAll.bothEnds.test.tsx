import type { IDataObject } from 'n8n-workflow';

import { useSandbox, type SandboxFixture } from '../../harness';
import {
	BOTH_ENDS,
	countListRounds,
	createTickets,
	createTicketsDuringRead,
	expectEachOnce,
	oldestFirstCalls,
	readInRuns,
	readList,
	singles,
	ticketIds,
	useLoggedWarnings,
	type Paging,
} from './listRounds';

// Options → Read From Both Ends: the newest end and the oldest end of the list read at once, by Return All or by a
// loop of One Page per Run runs.
const PAGINGS: Paging[] = ['Return All', 'One Page per Run'];

/** Ticket Get Many, Return All unless the parameters say otherwise. */
const readTickets = (fixture: SandboxFixture, parameters: IDataObject = {}) =>
	readList(fixture, 'Return All', parameters);

describe('from both ends, 1,050 tickets (every 10th created_at shared by 3)', () => {
	const fixture = useSandbox({ seed: 1050 });
	const { sandbox } = fixture;
	const warnings = useLoggedWarnings();
	afterEach(() => sandbox.setAnswerGate(undefined));

	it('Return All: the same items in the same order as one chain, in 7 round trips instead of 11', async () => {
		const oneChain = await readTickets(fixture);
		expect(oneChain.calls).toBe(11);
		const rounds = countListRounds(sandbox);
		const bothEnds = await readTickets(fixture, { options: BOTH_ENDS });
		expect(bothEnds.ids).toEqual(oneChain.ids);
		// The first page alone (a list of one page costs one call), then both ends at once; each end
		// asks for its next page without waiting for the other's, so one goes past where they meet.
		expect(rounds).toEqual([1, 2, 2, 2, 2, 2, 1]);
		expect(bothEnds.calls).toBe(12);
		expect(oldestFirstCalls(sandbox).map((e) => e.query.sort_by)).toEqual(
			new Array(5).fill('created_at'),
		);
	});

	it.each([1, 3])(
		'One Page per Run, Pages per Run %i: every ticket once, the calls of one chain, both ends at once',
		async (pagesPerRun) => {
			const oneChain = await readInRuns(fixture, { resource: 'ticket', pagesPerRun });
			expectEachOnce(oneChain.ids, ticketIds(fixture));
			const rounds = countListRounds(sandbox);
			const bothEnds = await readInRuns(fixture, {
				resource: 'ticket',
				pagesPerRun,
				options: BOTH_ENDS,
			});
			expectEachOnce(bothEnds.ids, ticketIds(fixture));
			expect(bothEnds.calls).toBeLessThanOrEqual(oneChain.calls + 2);
			expect(rounds).toEqual([1, 2, 2, 2, 2, 2]);
			expect(bothEnds.runs).toBe(Math.ceil(6 / pagesPerRun));
			expect(warnings).toEqual([]);
		},
	);

	it('a status filter: the oldest end sends it too; the same items as one chain', async () => {
		const filters = { status: 'open' };
		const oneChain = await readTickets(fixture, { filters });
		const bothEnds = await readTickets(fixture, { filters, options: BOTH_ENDS });
		expect(bothEnds.ids).toEqual(oneChain.ids);
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
		expect(withIt.ids).toEqual(without.ids);
		expect(withIt.calls).toBe(without.calls);
		expect(rounds).toEqual(new Array(without.calls).fill(1));
		expect(oldestFirstCalls(sandbox)).toHaveLength(0);
	});

	it.each(PAGINGS)('%s under a rate limit of 20 requests/s: every ticket once', async (paging) => {
		// No burst: the two ends' requests in flight at once are refused as the limit binds.
		sandbox.setFaults({ rateLimit: { perSecond: 20, burst: 1 } });
		const { ids } = await readList(fixture, paging, {
			pagesPerRun: 10,
			options: BOTH_ENDS,
		}).finally(() => sandbox.setFaults({}));
		expectEachOnce(ids, ticketIds(fixture));
		expect(sandbox.log.filter((e) => e.status === 429).length).toBeGreaterThan(0);
		expect(oldestFirstCalls(sandbox).length).toBeGreaterThan(0);
	});
});

// One chain reads each in ⌈n/100⌉ round trips; from both ends, rounds follow from where they meet, and the ids at
// each end's last created_at keep each ticket once.
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
])('from both ends: %s', (_name, groups, expectedRounds) => {
	const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
	const fixture = useSandbox({ now: () => clock.ms, maxSkewSeconds: 10 ** 9 });
	const { sandbox } = fixture;
	beforeAll(() => createTickets(sandbox, clock, groups));
	afterEach(() => sandbox.setAnswerGate(undefined));

	it('Return All: the same items in the same order as one chain, at most two calls more', async () => {
		const oneChain = await readTickets(fixture);
		const rounds = countListRounds(sandbox);
		const bothEnds = await readTickets(fixture, { options: BOTH_ENDS });
		expect(bothEnds.ids).toEqual(oneChain.ids);
		expect(rounds).toEqual(expectedRounds);
		expect(bothEnds.calls).toBeLessThanOrEqual(oneChain.calls + 2);
		expect(oldestFirstCalls(sandbox).length).toBeGreaterThan(0);
	});

	it.each([1, 2])('One Page per Run, Pages per Run %i: every ticket once', async (pagesPerRun) => {
		const loop = await readInRuns(fixture, { resource: 'ticket', pagesPerRun, options: BOTH_ENDS });
		expectEachOnce(loop.ids, ticketIds(fixture));
		expect(oldestFirstCalls(sandbox).length).toBeGreaterThan(0);
	});

	it.each(PAGINGS)(
		'%s, tickets created in the same instant during the read: none twice, none missing',
		async (paging) => {
			const atStart = ticketIds(fixture);
			createTicketsDuringRead(sandbox, [1, 2, 3], 5);
			const { ids } = await readList(fixture, paging, { options: BOTH_ENDS });
			expect(sandbox.store.ticketCount).toBe(atStart.length + 15);
			expect(new Set(ids).size).toBe(ids.length);
			expect(ids).toEqual(expect.arrayContaining(atStart));
			expect(oldestFirstCalls(sandbox).length).toBeGreaterThan(0);
		},
	);
});
