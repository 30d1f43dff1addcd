import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, runWorkflow, singleNodeWorkflow, useSandbox } from '../../harness';
import { startMisbehavingProxy, type MisbehavingProxy } from '../../harness/misbehavingProxy';
import { startSandbox } from '../../../sandbox';
import { byId, NODE, runNode } from '../supportTicketNode';

// Return All by cursor, Limit, and One Page per Run (one call, one item holding the page, a cursor in and out; the
// page-by-page loop in real n8n: cliCases.tsx).
const TICKETS = 1050;
const { sandbox, credentials } = useSandbox({ seed: TICKETS });

/** One page of `resource` (tickets by default). */
const page = (parameters: IDataObject, creds = credentials) =>
	runNode({ resource: 'ticket', operation: 'getAll', pagination: 'onePage', ...parameters }, creds);

const newestFirstIds = () => sandbox.store.listTickets().map((t) => t.id);

let proxy: MisbehavingProxy;
beforeAll(async () => (proxy = await startMisbehavingProxy(sandbox.baseUrl)));
afterAll(async () => proxy.stop());
afterEach(() => sandbox.setAnswerGate(undefined));

const PAGE_STORE_DOWN = {
	kind: 'replace' as const,
	status: 500, // not retried
	headers: { 'content-type': 'application/json' },
	body: '{"error":{"code":"internal_error","message":"Page store down"}}',
};

/** The proxy answers the list request after the first `pagesAnswered` with a 500. */
function failListAfter(pagesAnswered: number) {
	const failNext = () => proxy.setRules([{ method: 'GET', times: 1, answer: PAGE_STORE_DOWN }]);
	proxy.setRules([]);
	if (pagesAnswered === 0) return failNext();
	let answered = 0;
	sandbox.setAnswerGate(() => {
		if (++answered === pagesAnswered) failNext();
		return undefined;
	});
}

/** One Page per Run through the proxy; `continueOnFail`: Settings → On Error → Continue. */
function pageViaProxy(parameters: IDataObject, continueOnFail = false) {
	const all = { resource: 'ticket', operation: 'getAll', pagination: 'onePage', ...parameters };
	const settings = continueOnFail ? { onError: 'continueRegularOutput' as const } : {};
	const credentials = { supportTicketApi: credentialsFor(sandbox, proxy.baseUrl) };
	return runWorkflow(singleNodeWorkflow(NODE, all, settings), credentials);
}

describe('one page per run', () => {
	it('the first page: one item with data, count, has_more and next_cursor; one call', async () => {
		const result = await page({ pageSize: 40 });
		expect(result.error).toBeUndefined();
		const out = result.output('Node');
		expect(out).toHaveLength(1);
		const { data, count, has_more, next_cursor } = out[0].json as {
			data: IDataObject[];
			count: number;
			has_more: boolean;
			next_cursor: string;
		};
		expect(Object.keys(out[0].json).sort()).toEqual(['count', 'data', 'has_more', 'next_cursor']);
		expect(data.map((t) => t.id)).toEqual(newestFirstIds().slice(0, 40));
		expect(count).toBe(40);
		expect(has_more).toBe(true);
		expect(next_cursor).toEqual(expect.any(String));
		expect(sandbox.log.map((e) => e.query)).toEqual([{ per_page: '40' }]);
	});

	it('the cursor continues where the last page ended; the last page says has_more false and next_cursor null', async () => {
		const first = (await page({ pageSize: 40, filters: { priority: 'urgent' } })).output('Node')[0]
			.json;
		const urgent = sandbox.store.listTickets({ priority: 'urgent' }).map((t) => t.id);
		expect(urgent.length).toBeGreaterThan(80);
		expect(urgent.length).toBeLessThan(400);
		let json = first;
		const ids = (json.data as IDataObject[]).map((t) => t.id);
		while (json.has_more) {
			json = (
				await page({ pageSize: 40, filters: { priority: 'urgent' }, cursor: json.next_cursor })
			).output('Node')[0].json;
			ids.push(...(json.data as IDataObject[]).map((t) => t.id));
		}
		expect(ids).toEqual(urgent);
		expect(json).toMatchObject({ has_more: false, next_cursor: null });
		expect(sandbox.log).toHaveLength(Math.ceil(urgent.length / 40));
	});

	it('replies and customers page the same way', async () => {
		const ticket = sandbox.store
			.listTickets()
			.find((t) => sandbox.store.listReplies(t.id).length >= 2);
		expect(ticket).toBeDefined();
		const replies = await page({
			resource: 'reply',
			ticketId: byId(ticket?.id as string),
			pageSize: 1,
		});
		expect(replies.output('Node')[0].json).toMatchObject({
			count: 1,
			has_more: true,
			data: [sandbox.store.listReplies(ticket?.id as string)[0]],
		});

		const customers = await page({ resource: 'customer', pageSize: 100 });
		const all = sandbox.store.listCustomers();
		expect(customers.output('Node')[0].json).toMatchObject({
			count: 100,
			has_more: all.length > 100,
			data: all.slice(0, 100),
		});
	});

	it('an empty list is still one item, so a loop ends cleanly', async () => {
		const empty = await startSandbox({ seed: 0 });
		try {
			const result = await page({ resource: 'customer' }, credentialsFor(empty));
			expect(result.output('Node').map((i) => i.json)).toEqual([
				{ data: [], count: 0, has_more: false, next_cursor: null },
			]);
		} finally {
			await empty.stop();
		}
	});

	it('Pages per Run reads that many pages one after another into the one item; next_cursor continues after the last', async () => {
		const first = (await page({ pageSize: 100, pagesPerRun: 4 })).output('Node');
		expect(first).toHaveLength(1);
		expect(first[0].json).toMatchObject({
			count: 400,
			has_more: true,
			next_cursor: expect.any(String),
		});
		expect(sandbox.log.map((e) => e.query.per_page)).toEqual(['100', '100', '100', '100']);
		const rest = (
			await page({ pageSize: 100, pagesPerRun: 100, cursor: first[0].json.next_cursor })
		).output('Node')[0].json;
		// The list ends before the pages do: the item holds what is left and says it is the last.
		expect(rest).toMatchObject({ count: TICKETS - 400, has_more: false, next_cursor: null });
		expect(
			[...(first[0].json.data as IDataObject[]), ...(rest.data as IDataObject[])].map((t) => t.id),
		).toEqual(newestFirstIds());
		expect(sandbox.log).toHaveLength(4 + Math.ceil((TICKETS - 400) / 100));
	});

	it('Pages per Run: a failed later page is named, with what was read', async () => {
		failListAfter(2);
		const result = await pageViaProxy({ pageSize: 100, pagesPerRun: 4 });
		expect(result.error?.message).toBe('The service had an error (HTTP 500)');
		expect(result.error?.description).toBe(
			'Page 3 of this run, after 200 tickets; nothing of this run is output, ' +
				'and a new run starts again from Cursor. ' +
				"This is a problem on the service's side; try again later. " +
				'The service said: "Page store down"',
		);
		expect(sandbox.log).toHaveLength(2);
	});

	it("Continue On Fail: has_more and the run's Cursor in the error item", async () => {
		const first = (await page({ pageSize: 50 })).output('Node')[0].json;
		const run = { pageSize: 50, pagesPerRun: 3 };
		failListAfter(1);
		const failed = await pageViaProxy({ ...run, cursor: first.next_cursor }, true);
		expect(failed.error).toBeUndefined();
		const [item] = failed.output('Node');
		expect(Object.keys(item.json)).toEqual(['error', 'description', 'has_more', 'next_cursor']);
		expect(item.json).toMatchObject({
			error: 'The service had an error (HTTP 500)',
			has_more: true,
			next_cursor: first.next_cursor,
		});
		expect(item.json.description).toMatch(/^Page 2 of this run, after 50 tickets; nothing/);

		// The loop's next round, Cursor {{ $json.next_cursor }}: the failed run's pages again.
		const resumed = await pageViaProxy({ ...run, cursor: item.json.next_cursor }, true);
		const page2 = resumed.output('Node')[0].json;
		const ids = (page2.data as IDataObject[]).map((t) => t.id);
		expect(ids).toEqual(newestFirstIds().slice(50, 200));
		expect(page2).toMatchObject({ count: 150, has_more: true });

		// The first page of the list failed: next_cursor null, the next round starts there again.
		failListAfter(0);
		const firstFailed = (await pageViaProxy({ pageSize: 50 }, true)).output('Node')[0].json;
		expect(firstFailed).toMatchObject({ has_more: true, next_cursor: null });
		expect(firstFailed.description).not.toMatch(/^Page/);
	});

	it.each([
		[{ pageSize: 0 }, 'Page Size must be a whole number from 1 to 100 (got 0)'],
		[{ pageSize: 101 }, 'Page Size must be a whole number from 1 to 100 (got 101)'],
		[{ pagesPerRun: 0 }, 'Pages per Run must be a whole number from 1 to 100 (got 0)'],
		[{ pagesPerRun: 2.5 }, 'Pages per Run must be a whole number from 1 to 100 (got 2.5)'],
		[{ pagesPerRun: '"ten"' }, 'Pages per Run must be a whole number from 1 to 100 (got ten)'],
		[{ pageSize: '"150"' }, 'Page Size must be a whole number from 1 to 100 (got 150)'],
	])('%j is refused before any request', async (parameters, message) => {
		const [[name, value]] = Object.entries(parameters);
		const result = await page({ [name]: `={{ ${value} }}` });
		expect(result.error?.message).toBe(message);
		expect(sandbox.log).toHaveLength(0);
	});

	it('Page Size and Pages per Run as text from an expression are read as numbers', async () => {
		const result = await page({ pageSize: '={{ "30" }}', pagesPerRun: '={{ " 2 " }}' });
		expect(result.error).toBeUndefined();
		expect(result.output('Node')[0].json).toMatchObject({ count: 60, has_more: true });
		expect(sandbox.log.map((e) => e.query.per_page)).toEqual(['30', '30']);
	});
});

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
