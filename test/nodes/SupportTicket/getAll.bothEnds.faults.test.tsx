import type { IDataObject } from 'n8n-workflow';

import { useSandbox, type SandboxFixture } from '../../harness';
import { runNode } from '../supportTicketNode';
import {
	BOTH_ENDS,
	createTickets,
	expectEachOnce,
	oldestFirstCalls,
	readInRuns,
	readList,
	singles,
	ticketIds,
	useLoggedWarnings,
} from './listRounds';

// Read From Both Ends where the service or the Cursor is not as expected: each test failed before
// its fix.
const TICKETS = '/api/v1/external/tickets';
const PAGINGS = ['Return All', 'One Page per Run'] as const;

/** The `nth` list request of one end (1: its first) is answered 500, once; every other as usual. */
function failOnce(fixture: SandboxFixture, end: 'newest' | 'oldest', nth: number) {
	let seen = 0;
	fixture.sandbox.setAnswerGate((entry, answer) => {
		const mine = entry.method === 'GET' && (entry.query.sort === 'asc') === (end === 'oldest');
		if (mine && ++seen === nth) {
			answer.status = 500;
			answer.body = { error: { code: 'internal_error', message: 'Something broke' } };
		}
		return undefined;
	});
}

/** Each ticket of every list answer goes through `edit` before it is sent. */
function editListedTickets(fixture: SandboxFixture, edit: (ticket: IDataObject) => void) {
	fixture.sandbox.setAnswerGate((entry, answer) => {
		const data = (answer.body as { data?: IDataObject[] } | undefined)?.data;
		if (entry.method === 'GET' && Array.isArray(data)) data.forEach(edit);
		return undefined;
	});
}

describe('One Page per Run from both ends, 300 tickets', () => {
	const fixture = useSandbox({ seed: 300 });
	afterEach(() => fixture.sandbox.setAnswerGate(undefined));
	const warnings = useLoggedWarnings();

	// Return All calls an empty first oldest-first page "did not come back oldest first" and reads
	// on as one chain; One Page per Run takes it for the end of the list (has_more false).
	it('a service that answers sort=asc with an empty list: every ticket once, as Return All reads them (not has_more false after 2 runs)', async () => {
		const all = ticketIds(fixture);
		expect(all).toHaveLength(300);
		fixture.sandbox.setAnswerGate((entry, answer) => {
			if (entry.method === 'GET' && entry.query.sort === 'asc')
				answer.body = { data: [], meta: { has_more: false, next_cursor: null } };
			return undefined;
		});
		for (const paging of PAGINGS) {
			warnings.length = 0;
			expectEachOnce((await readList(fixture, paging, { options: BOTH_ENDS })).ids, all);
			expect(warnings).toEqual([expect.stringMatching(/did not come back oldest first/)]);
		}
	});

	// A position changed by hand. The docs: a Cursor that starts so but is not one the node gave
	// out is refused before any request.
	const onePage = {
		resource: 'ticket',
		operation: 'getAll',
		pagination: 'onePage',
		options: BOTH_ENDS,
	};
	/** The first run's position with its oldest end moved past the newest end. */
	async function pastTheNewestEnd() {
		const first = await runNode(onePage, fixture.credentials);
		const cursor = first.output('Node')[0].json.next_cursor as string;
		const position = JSON.parse(
			Buffer.from(cursor.slice('both-ends:'.length), 'base64url').toString(),
		) as { oldest: { last: number | null } };
		position.oldest.last = Date.parse('2100-01-01T00:00:00Z');
		return `both-ends:${Buffer.from(JSON.stringify(position)).toString('base64url')}`;
	}

	it.each([
		['not a position at all', async () => 'both-ends:xyz'],
		['its oldest end past its newest end', pastTheNewestEnd],
	])('a position changed by hand, %s: refused before any request', async (_name, tamper) => {
		const cursor = await tamper();
		fixture.sandbox.clearLog();
		const result = await runNode({ ...onePage, cursor }, fixture.credentials);
		expect(result.error?.message).toBe('The Cursor is not a position this node gave out');
		expect(fixture.sandbox.countCalls({ pathname: TICKETS })).toBe(0);
	});
});

describe('One Page per Run from both ends: one ticket whose created_at cannot be read, mid-list', () => {
	const fixture = useSandbox({ seed: 600 });
	afterEach(() => fixture.sandbox.setAnswerGate(undefined));
	const warnings = useLoggedWarnings();

	// The service honours sort=asc throughout; only one ticket in the middle has a created_at the
	// node cannot read. The oldest end has output its first page in run 2; the newest end meets the
	// ticket in run 3, the loop goes on from the newest end only and outputs those tickets again.
	it('every ticket once across the runs (the oldest end output its first 100 already)', async () => {
		const all = ticketIds(fixture);
		const odd = fixture.sandbox.store.listTickets()[250].id;
		editListedTickets(fixture, (ticket) => {
			if (ticket.id === odd) ticket.created_at = 'soon';
		});
		const loop = await readInRuns(fixture, { resource: 'ticket', options: BOTH_ENDS });
		expect(warnings).toEqual([expect.stringMatching(/created_at the node cannot read/)]);
		expectEachOnce(loop.ids, all);
	});
});

describe('Both ends: a failure of a page that is not needed', () => {
	const fixture = useSandbox({ seed: 150 });
	afterEach(() => fixture.sandbox.setAnswerGate(undefined));

	// 150 tickets: the newest end's second page ends the list, so the oldest end's first page (asked
	// at the same time) is not needed; one chain reads the list in 2 calls without it.
	it.each(PAGINGS)(
		'%s (Pages per Run 2) of a list of two pages: the list, despite a 500 on the oldest end',
		async (paging) => {
			failOnce(fixture, 'oldest', 1);
			const { ids } = await readList(fixture, paging, { pagesPerRun: 2, options: BOTH_ENDS });
			expect(oldestFirstCalls(fixture.sandbox)).toHaveLength(1);
			expectEachOnce(ids, ticketIds(fixture));
		},
	);
});

describe('Both ends: a failure of a page that is needed', () => {
	const fixture = useSandbox({ seed: 1050 });
	afterEach(() => fixture.sandbox.setAnswerGate(undefined));

	it.each(['newest', 'oldest'] as const)(
		"Return All: a 500 on the %s end's second page fails the read with it",
		async (end) => {
			failOnce(fixture, end, 2);
			const result = await runNode(
				{ resource: 'ticket', operation: 'getAll', returnAll: true, options: BOTH_ENDS },
				fixture.credentials,
			);
			expect(result.error?.message).toBe('The service had an error (HTTP 500)');
		},
	);

	it.each(['newest', 'oldest'] as const)(
		'One Page per Run: a 500 on the %s end fails the run; the loop goes on from its Cursor',
		async (end) => {
			failOnce(fixture, end, 3);
			const parameters = { resource: 'ticket', pagesPerRun: 3, options: BOTH_ENDS };
			const [ids, errors]: string[][] = [[], []];
			let cursor = '';
			for (let run = 0; run < 40; run++) {
				const result = await runNode(
					{ operation: 'getAll', pagination: 'onePage', cursor, ...parameters },
					fixture.credentials,
				);
				if (result.error) errors.push(result.error.message);
				// A failed run is run again from its Cursor, as has_more says.
				const page = result.error
					? { data: [], has_more: true, next_cursor: cursor || null }
					: (result.output('Node')[0].json as IDataObject);
				for (const item of page.data as IDataObject[]) ids.push(item.id as string);
				if (!page.has_more) break;
				cursor = (page.next_cursor as string | null) ?? '';
			}
			expect(errors).toEqual(['The service had an error (HTTP 500)']);
			expectEachOnce(ids, ticketIds(fixture));
		},
	);
});

describe('Both ends: a service that honours sort=asc, the oldest created_at shared by many', () => {
	// 250 tickets created in one instant (an import; a service whose timestamps are whole seconds
	// makes such ties common), then 30 one by one. The service lists them oldest first as asked, but
	// the newest end's first page reaches down into the 250, so the first oldest-first page "is not
	// older" than it: the node warns that the service did not come back oldest first and reads one
	// chain (correct items, a false warning telling the user to turn the option off).
	const fixture = useTies([250, ...singles(30)]);
	const warnings = useLoggedWarnings();

	it.each(PAGINGS)(
		'%s (Page Size 50): no warning that the list did not come back oldest first',
		async (paging) => {
			const { ids } = await readList(fixture, paging, { pageSize: 50, options: BOTH_ENDS });
			expectEachOnce(ids, ticketIds(fixture));
			expect(warnings).toEqual([]);
		},
	);
});

/** A sandbox with these groups of tickets, each group in one instant (createTickets). */
function useTies(groups: number[]) {
	const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
	const fixture = useSandbox({ now: () => clock.ms, maxSkewSeconds: 10 ** 9 });
	beforeAll(() => createTickets(fixture.sandbox, clock, groups));
	return fixture;
}

// The example keeps positions as a Postgres key; a position holds the ids read at each end's last
// created_at, so it grew with ties (~10 kB by run 10 with 1,000 tickets in one instant).
describe('One Page per Run from both ends: 1,000 tickets in one instant', () => {
	const fixture = useTies([1000]);
	const warnings = useLoggedWarnings();

	it('every ticket once, positions under 2,704 characters, no warning', async () => {
		const loop = await readInRuns(fixture, { resource: 'ticket', options: BOTH_ENDS });
		expectEachOnce(loop.ids, ticketIds(fixture));
		expect(Math.max(...loop.positions.map((p) => p.length))).toBeLessThan(2704);
		expect(warnings).toEqual([]);
	});
});

/** Ids of 36 characters, a UUID's length: `tkt_12` is answered as `tkt_000…00012` at both ends. */
const longId = (id: string) => `tkt_${id.slice(4).padStart(32, '0')}`;

/** As useTies, the list answering ids of 36 characters. */
function useTiesWithLongIds(groups: number[]) {
	const fixture = useTies(groups);
	beforeAll(() =>
		editListedTickets(fixture, (ticket) => (ticket.id = longId(ticket.id as string))),
	);
	return fixture;
}

// Past 500 ids kept at the ends' last created_at (both ends together, checked before a page is
// taken) the loop reads on from the newest end only, skipping what the oldest end output. Each
// failed before: the limit was per end and checked after the run (positions of about 47 kB).
describe.each([
	{ pagesPerRun: 1, groups: [600, ...singles(1000), 600], at: 'both ends' },
	{ pagesPerRun: 10, groups: [1500, ...singles(1500)], at: 'the oldest end' },
])('One Page per Run from both ends, Pages per Run $pagesPerRun: ties at $at', (loop) => {
	const fixture = useTiesWithLongIds(loop.groups);
	const warnings = useLoggedWarnings();

	it('every ticket once, each position under 30 kB, one warning', async () => {
		const { ids, positions } = await readInRuns(fixture, {
			resource: 'ticket',
			pagesPerRun: loop.pagesPerRun,
			options: BOTH_ENDS,
		});
		expectEachOnce(ids, ticketIds(fixture).map(longId));
		expect(Math.max(...positions.map((p) => p.length))).toBeLessThan(30 * 1024);
		expect(warnings).toEqual([expect.stringMatching(/has over 500 items with one created_at/)]);
	});
});
