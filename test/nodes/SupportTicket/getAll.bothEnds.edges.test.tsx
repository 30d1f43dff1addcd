import type { IDataObject } from 'n8n-workflow';

import { useSandbox, type SandboxFixture } from '../../harness';
import { runNode } from '../supportTicketNode';
import { createTickets, useLoggedWarnings } from './listRounds';

// Read From Both Ends at its edges: an empty oldest-first answer, and many tickets in one created_at.
const BOTH_ENDS = { readFromBothEnds: true };

interface Loop {
	ids: string[];
	runs: number;
	positions: string[];
}

/** One Page per Run until has_more is false, each run from the last one's next_cursor. */
async function readInRuns({ credentials }: SandboxFixture, parameters: IDataObject): Promise<Loop> {
	const ids: string[] = [];
	const positions: string[] = [];
	let cursor = '';
	for (let runs = 1; runs <= 300; runs++) {
		const result = await runNode(
			{ resource: 'ticket', operation: 'getAll', pagination: 'onePage', cursor, ...parameters },
			credentials,
		);
		if (result.error) throw result.error;
		const [page] = result.output('Node').map((item) => item.json);
		for (const item of page.data as IDataObject[]) ids.push(item.id as string);
		if (!page.has_more) return { ids, runs, positions };
		cursor = page.next_cursor as string;
		positions.push(cursor);
	}
	throw new Error('The loop did not end in 300 runs');
}

async function returnAll({ credentials }: SandboxFixture, parameters: IDataObject = {}) {
	const result = await runNode(
		{ resource: 'ticket', operation: 'getAll', returnAll: true, ...parameters },
		credentials,
	);
	if (result.error) throw result.error;
	return result.output('Node').map((item) => item.json);
}

function expectEachOnce(ids: string[], expected: string[]) {
	const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
	expect({
		twice: twice.length,
		missing: expected.filter((id) => !ids.includes(id)).length,
	}).toEqual({ twice: 0, missing: 0 });
}

const ticketIds = (fixture: SandboxFixture) => fixture.sandbox.store.listTickets().map((t) => t.id);

describe('One Page per Run from both ends: a service that answers sort=asc with an empty list', () => {
	const fixture = useSandbox({ seed: 300 });
	afterEach(() => fixture.sandbox.setAnswerGate(undefined));
	const warnings = useLoggedWarnings();

	// Return All calls an empty first oldest-first page "did not come back oldest first" and reads
	// on as one chain; One Page per Run takes it for the end of the list (has_more false).
	it('every ticket once, as Return All reads them (not has_more false after 2 runs)', async () => {
		const all = ticketIds(fixture);
		expect(all).toHaveLength(300);
		fixture.sandbox.setAnswerGate((entry, answer) => {
			if (entry.method === 'GET' && entry.query.sort === 'asc')
				answer.body = { data: [], meta: { has_more: false, next_cursor: null } };
			return undefined;
		});
		const items = await returnAll(fixture, { options: BOTH_ENDS });
		expectEachOnce(
			items.map((t) => t.id as string),
			all,
		);
		expect(warnings).toEqual([expect.stringMatching(/did not come back oldest first/)]);
		warnings.length = 0;
		const loop = await readInRuns(fixture, { resource: 'ticket', options: BOTH_ENDS });
		expectEachOnce(loop.ids, all);
		expect(warnings).toEqual([expect.stringMatching(/did not come back oldest first/)]);
	});
});

describe('One Page per Run from both ends: the position with many tickets in one created_at', () => {
	const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
	const fixture = useSandbox({ now: () => clock.ms, maxSkewSeconds: 10 ** 9 });
	beforeAll(() => createTickets(fixture.sandbox, clock, [1000]));

	// All 1,000 in one instant: the loop falls back to the newest end only after run 2, yet every
	// run's position carries the ids of every ticket read so far (~10 kB by run 10), which no later
	// run needs. The import example keeps positions as a Postgres PRIMARY KEY (at most 2,704 bytes).
	it('positions stay small (under 2,704 characters)', async () => {
		const loop = await readInRuns(fixture, { resource: 'ticket', options: BOTH_ENDS });
		expectEachOnce(loop.ids, ticketIds(fixture));
		const longest = Math.max(...loop.positions.map((p) => p.length));
		expect(longest).toBeLessThan(2704);
	});
});
