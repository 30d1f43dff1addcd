import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../../harness';
import { runNode } from '../supportTicketNode';

const TICKETS = 1050;
const { sandbox, credentials } = useSandbox({ seed: TICKETS });

async function getMany(parameters: IDataObject) {
	const result = await runNode(
		{ resource: 'ticket', operation: 'getAll', ...parameters },
		credentials,
	);
	if (result.error) throw result.error;
	return result.output('Node').map((item) => item.json);
}

const listCalls = () =>
	sandbox.countCalls({ method: 'GET', pathname: '/api/v1/external/tickets', status: 200 });

/** The service's own order for the same query, read from its store. */
function expectedIds(
	filter: (t: IDataObject) => boolean,
	sortKey: 'created_at' | 'updated_at',
	order: 'asc' | 'desc',
) {
	const all = sandbox.store.listTickets({
		sortBy: sortKey,
		sort: order,
	}) as unknown as IDataObject[];
	return all.filter(filter).map((t) => t.id);
}

describe('ticket Get Many: Return All by cursor over 1,050 tickets', () => {
	it.each([
		['no filter, default order', {}, {}, () => true, 'created_at', 'desc'],
		[
			'status filter',
			{ status: 'open' },
			{},
			(t: IDataObject) => t.status === 'open',
			'created_at',
			'desc',
		],
		[
			'priority filter, oldest first',
			{ priority: 'high' },
			{ sortBy: 'created_at', sortOrder: 'asc' },
			(t: IDataObject) => t.priority === 'high',
			'created_at',
			'asc',
		],
		[
			'sort by updated_at asc',
			{},
			{ sortBy: 'updated_at', sortOrder: 'asc' },
			() => true,
			'updated_at',
			'asc',
		],
	] as const)(
		'%s: every match once, in order, in ⌈n/100⌉ calls',
		async (_name, filters, options, filter, sortKey, order) => {
			const items = await getMany({ returnAll: true, filters, options });
			const expected = expectedIds(filter, sortKey, order);
			expect(items.map((t) => t.id)).toEqual(expected);
			expect(new Set(items.map((t) => t.id)).size).toBe(items.length);
			expect(listCalls()).toBe(Math.max(1, Math.ceil(expected.length / 100)));
			// Filters and sort are byte-identical on every page; only the cursor changes.
			const withoutCursor = new Set(sandbox.log.map((e) => e.path.replace(/&cursor=[^&]*/, '')));
			expect(withoutCursor.size).toBe(1);
		},
	);

	it.each([
		[1, 1],
		[100, 1],
		[101, 2],
		[250, 3],
	])('Limit %i returns exactly that many in %i call(s)', async (limit, calls) => {
		const items = await getMany({ limit });
		expect(items).toHaveLength(limit);
		expect(items.map((t) => t.id)).toEqual(
			expectedIds(() => true, 'created_at', 'desc').slice(0, limit),
		);
		expect(listCalls()).toBe(calls);
		expect(sandbox.log[0].query.per_page).toBe(String(Math.min(limit, 100)));
	});
});

describe('under 30% injected 429/503', () => {
	it('Return All still returns each ticket exactly once, repeating only the failed pages', async () => {
		sandbox.setFaults({ rate429: 0.15, rate503: 0.15, retryAfter: 0, seed: 7 });
		const items = await getMany({ returnAll: true });
		sandbox.setFaults({});
		const ids = items.map((t) => t.id);
		expect(ids).toEqual(expectedIds(() => true, 'created_at', 'desc'));
		expect(listCalls()).toBe(Math.ceil(TICKETS / 100));
		const faulted = sandbox.log.filter((e) => e.fault !== undefined).length;
		expect(faulted).toBeGreaterThan(0);
		expect(sandbox.log).toHaveLength(Math.ceil(TICKETS / 100) + faulted);
		// No page was fetched twice successfully, so no traversal restarted from page 1.
		const firstPages = sandbox.log.filter((e) => e.status === 200 && !e.query.cursor).length;
		expect(firstPages).toBe(1);
	});
});
