import { useSandbox } from '../../harness';
import { runNode } from '../supportTicketNode';
import {
	countListRounds,
	createTickets,
	createTicketsDuringRead,
	expectEachOnce,
	oldestFirstCalls,
	readInRuns,
	singles,
	ticketIds,
	useLoggedWarnings,
} from './listRounds';

// One Page per Run with Read From Both Ends: a loop of runs, each reading from both ends at once.
const BOTH_ENDS = { readFromBothEnds: true };

describe('One Page per Run from both ends, 1,050 tickets (every 10th created_at shared by 3)', () => {
	const fixture = useSandbox({ seed: 1050 });
	const { sandbox } = fixture;
	const warnings = useLoggedWarnings();
	afterEach(() => {
		sandbox.setAnswerGate(undefined);
		sandbox.store.listQuirks = {};
	});

	it.each([1, 3])(
		'Pages per Run %i: every ticket once, the calls of one chain, both ends at once',
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
			// The first page alone, then a page from each end at once.
			expect(rounds).toEqual([1, 2, 2, 2, 2, 2]);
			expect(bothEnds.runs).toBe(Math.ceil(6 / pagesPerRun));
			expect(warnings).toEqual([]);
		},
	);

	it('tickets created during the loop: none twice, none there at the start missing', async () => {
		const atStart = ticketIds(fixture);
		createTicketsDuringRead(sandbox, [2, 5, 8], 3);
		const { ids } = await readInRuns(fixture, { resource: 'ticket', options: BOTH_ENDS });
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids).toEqual(expect.arrayContaining(atStart));
		expect(oldestFirstCalls(sandbox).length).toBeGreaterThan(0);
	});

	it('a service that ignores sort=asc: one chain, every ticket once, one log line', async () => {
		sandbox.store.listQuirks.ignoreSortBy = true;
		const loop = await readInRuns(fixture, { resource: 'ticket', options: BOTH_ENDS });
		expectEachOnce(loop.ids, ticketIds(fixture));
		expect(loop.calls).toBe(11 + 1);
		expect(oldestFirstCalls(sandbox)).toHaveLength(1);
		expect(warnings).toEqual([expect.stringMatching(/tickets did not come back oldest first/)]);
	});

	it.each([
		['refuses', undefined, /refused oldest first \(HTTP 400\)/],
		['ignores', 'ignore' as const, /did not come back oldest first/],
	])(
		'a service that honours it for tickets only and %s it for customers',
		async (_name, pageListSort, warning) => {
			sandbox.store.listQuirks.pageListSort = pageListSort;
			const customers = sandbox.store.listCustomers().map((c) => c.id);
			const loop = await readInRuns(
				fixture,
				{ resource: 'customer', options: BOTH_ENDS },
				'/api/v1/external/customers',
			);
			expectEachOnce(loop.ids, customers);
			expect(warnings).toEqual([expect.stringMatching(warning)]);
			warnings.length = 0;
			const tickets = await readInRuns(fixture, { resource: 'ticket', options: BOTH_ENDS });
			expectEachOnce(tickets.ids, ticketIds(fixture));
			expect(warnings).toEqual([]);
		},
	);

	it('a Cursor that is not a position it gave out: an error naming it, before any request', async () => {
		sandbox.clearLog();
		const result = await runNode(
			{ resource: 'ticket', operation: 'getAll', pagination: 'onePage', cursor: 'both-ends:xyz' },
			fixture.credentials,
		);
		expect(result.error?.message).toBe('The Cursor is not a position this node gave out');
		expect(sandbox.log).toHaveLength(0);
	});
});

// Created_at ties where the ends meet: the ids at each end's last created_at keep each ticket once.
describe.each([
	['a created_at shared by 3 at the meeting point', [...singles(180), ...Array(30).fill(3), 180]],
	['a created_at shared by 140 that both ends reach', [...singles(180), 140, ...singles(180)]],
	['one created_at for all 350 tickets', [350]],
])('One Page per Run from both ends: %s', (_name, groups) => {
	const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
	const fixture = useSandbox({ now: () => clock.ms, maxSkewSeconds: 10 ** 9 });
	beforeAll(() => createTickets(fixture.sandbox, clock, groups));
	afterEach(() => fixture.sandbox.setAnswerGate(undefined));

	it.each([1, 2])('Pages per Run %i: every ticket once', async (pagesPerRun) => {
		const loop = await readInRuns(fixture, {
			resource: 'ticket',
			pagesPerRun,
			options: BOTH_ENDS,
		});
		expectEachOnce(loop.ids, ticketIds(fixture));
		expect(oldestFirstCalls(fixture.sandbox).length).toBeGreaterThan(0);
	});

	it('tickets created in the same instant during the loop: none twice, none missing', async () => {
		const atStart = ticketIds(fixture);
		createTicketsDuringRead(fixture.sandbox, [1, 2, 3], 5);
		const { ids } = await readInRuns(fixture, { resource: 'ticket', options: BOTH_ENDS });
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids).toEqual(expect.arrayContaining(atStart));
	});
});
