import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, runWorkflow, singleNodeWorkflow, useSandbox } from '../../harness';
import { startSandbox, type TimestampFormat } from '../../../sandbox';
import { NODE, runNode } from '../supportTicketNode';
import type { ZoneRun } from './createdAfterInZone';

// Return All by cursor, Limit, One Page per Run (one call, one item holding the page, a cursor in and out; the
// page-by-page loop in real n8n: cliCases.tsx), and Created After: reading stops at the first older ticket, the
// boundary included, so a created_at fed back loses no ticket.
const TICKETS = 1050;
const { sandbox, credentials } = useSandbox({ seed: TICKETS });
afterEach(() => sandbox.setAnswerGate(undefined));

const getMany = (parameters: IDataObject) =>
	runNode({ resource: 'ticket', operation: 'getAll', ...parameters }, credentials);
/** One page of `resource` (tickets by default). */
const page = (parameters: IDataObject, creds = credentials) =>
	runNode({ resource: 'ticket', operation: 'getAll', pagination: 'onePage', ...parameters }, creds);

const newestFirst = () => sandbox.store.listTickets();
const newestFirstIds = () => newestFirst().map((t) => t.id);
const listCalls = () =>
	sandbox.countCalls({ method: 'GET', pathname: '/api/v1/external/tickets', status: 200 });
const atOrAfter = (iso: string) =>
	newestFirst().filter((t) => Date.parse(t.created_at) >= Date.parse(iso));

/** The list request after the first `pagesAnswered` is answered 500 (not retried), once. */
function failListAfter(pagesAnswered: number) {
	let answered = 0;
	sandbox.setAnswerGate((_entry, answer) => {
		if (++answered !== pagesAnswered + 1) return undefined;
		answer.status = 500;
		answer.body = { error: { code: 'internal_error', message: 'Page store down' } };
		return undefined;
	});
}

/** One Page per Run, Settings → On Error → Continue. */
const pageContinuingOnFail = (parameters: IDataObject) =>
	runWorkflow(
		singleNodeWorkflow(
			NODE,
			{ resource: 'ticket', operation: 'getAll', pagination: 'onePage', ...parameters },
			{ onError: 'continueRegularOutput' },
		),
		{ supportTicketApi: credentials },
	);

describe('one page per run', () => {
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

	it("a failed later page is named, with what was read; Continue On Fail: has_more and the run's Cursor in the error item", async () => {
		const first = (await page({ pageSize: 50 })).output('Node')[0].json;
		const run = { pageSize: 50, pagesPerRun: 3 };
		failListAfter(1);
		const failed = await pageContinuingOnFail({ ...run, cursor: first.next_cursor });
		expect(failed.error).toBeUndefined();
		const [item] = failed.output('Node');
		expect(Object.keys(item.json)).toEqual(['error', 'description', 'has_more', 'next_cursor']);
		expect(item.json).toMatchObject({
			error: 'The service had an error (HTTP 500)',
			has_more: true,
			next_cursor: first.next_cursor,
		});
		expect(item.json.description).toBe(
			'Page 2 of this run, after 50 tickets; nothing of this run is output, ' +
				'and a new run starts again from Cursor. ' +
				"This is a problem on the service's side; try again later. " +
				'The service said: "Page store down"',
		);

		// The loop's next round, Cursor {{ $json.next_cursor }}: the failed run's pages again.
		const resumed = await pageContinuingOnFail({ ...run, cursor: item.json.next_cursor });
		const page2 = resumed.output('Node')[0].json;
		const ids = (page2.data as IDataObject[]).map((t) => t.id);
		expect(ids).toEqual(newestFirstIds().slice(50, 200));
		expect(page2).toMatchObject({ count: 150, has_more: true });

		// The first page of the list failed: next_cursor null, the next round starts there again.
		failListAfter(0);
		const firstFailed = (await pageContinuingOnFail({ pageSize: 50 })).output('Node')[0].json;
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
});

async function getManyItems(parameters: IDataObject) {
	const result = await getMany(parameters);
	if (result.error) throw result.error;
	// n8n's server decrypts a credential on every read: the node reads it once, signing once per request.
	expect(result.credentialsHelper.decryptedReads).toBe(sandbox.log.length + 1);
	return result.output('Node').map((item) => item.json);
}

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
		['no filter, default order', {}, {}, 'created_at', 'desc'],
		['status filter', { status: 'open' }, {}, 'created_at', 'desc'],
		[
			'priority filter, oldest first',
			{ priority: 'high' },
			{ sortBy: 'created_at', sortOrder: 'asc' },
			'created_at',
			'asc',
		],
		['sort by updated_at asc', {}, { sortBy: 'updated_at', sortOrder: 'asc' }, 'updated_at', 'asc'],
	] as const)(
		'%s: every match once, in order, in ⌈n/100⌉ calls',
		async (_name, filters, options, sortKey, order) => {
			const items = await getManyItems({ returnAll: true, filters, options });
			const filter = (t: IDataObject) =>
				Object.entries(filters).every(([key, value]) => t[key] === value);
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
		const items = await getManyItems({ limit });
		expect(items).toHaveLength(limit);
		expect(items.map((t) => t.id)).toEqual(
			expectedIds(() => true, 'created_at', 'desc').slice(0, limit),
		);
		expect(listCalls()).toBe(calls);
		expect(sandbox.log[0].query.per_page).toBe(String(Math.min(limit, 100)));
	});
});

it('under 30% injected 429/503, Return All still returns each ticket exactly once, repeating only the failed pages', async () => {
	sandbox.setFaults({ rate429: 0.15, rate503: 0.15, retryAfter: 0, seed: 7 });
	const items = await getManyItems({ returnAll: true });
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

describe('Created After', () => {
	const ids = (result: { output(node: string): Array<{ json: IDataObject }> }) =>
		result.output('Node').map((i) => i.json.id);
	const createdAt = (position: number) =>
		position < 0
			? new Date(Date.parse(newestFirst()[0].created_at) + 1).toISOString()
			: newestFirst()[position].created_at;

	// The date is the created_at of the ticket at this position, newest first (-1: 1 ms after the newest).
	it.each([-1, 0, 1, 30, 99, 100, 101, 150, 200, 250, 1049])(
		'Return All, date of ticket #%i: exactly the tickets at or after it, one more page only when they fill theirs',
		async (position) => {
			const after = createdAt(position);
			const expected = atOrAfter(after).map((t) => t.id);
			const result = await getMany({ returnAll: true, options: { createdAfter: after } });
			expect(result.error).toBeUndefined();
			expect(ids(result)).toEqual(expected);
			expect(listCalls()).toBe(Math.floor(expected.length / 100) + 1);
		},
	);

	it('with a Limit, and with filters: stops at whichever comes first; the newer tickets that match', async () => {
		const after = newestFirst()[500].created_at;
		const limited = await getMany({ limit: 10, options: { createdAfter: after } });
		const newer = atOrAfter(after);
		expect(ids(limited)).toEqual(newer.slice(0, 10).map((t) => t.id));
		expect(listCalls()).toBe(1);
		const open = await getMany({
			returnAll: true,
			filters: { status: 'open' },
			options: { createdAfter: after },
		});
		expect(ids(open)).toEqual(newer.filter((t) => t.status === 'open').map((t) => t.id));
	});

	it.each([
		[1, 2],
		[5, 1],
	])(
		'One Page per Run, Pages per Run %i: the run ends at the first older ticket and says there is no more (%i runs)',
		async (pagesPerRun, runs) => {
			const options = { createdAfter: newestFirst()[130].created_at };
			const seen: unknown[] = [];
			let json: IDataObject = { next_cursor: undefined };
			for (let run = 0; run < runs; run++) {
				const cursor = json.next_cursor;
				json = (await page({ pageSize: 100, pagesPerRun, cursor, options })).output('Node')[0].json;
				seen.push(...(json.data as IDataObject[]).map((t) => t.id));
			}
			expect(seen).toEqual(atOrAfter(options.createdAfter).map((t) => t.id));
			expect(json).toMatchObject({ has_more: false, next_cursor: null });
			expect(listCalls()).toBe(2);
		},
	);

	// ISO without a zone and a Luxon DateTime from an expression: getAll.createdAfterTimezone.test.tsx; Unix time:
	// the numeric created_at tests below.
	it('the date as an expression giving a JavaScript Date', async () => {
		const after = newestFirst()[40].created_at;
		const result = await getMany({
			returnAll: true,
			options: { createdAfter: `={{ new Date('${after}') }}` },
		});
		expect(result.error).toBeUndefined();
		expect(ids(result)).toEqual(atOrAfter(after).map((t) => t.id));
	});
});

describe('refused before any request', () => {
	const order = [
		'Created After needs the newest-first order',
		'Reading stops at the first older ticket: remove Sort By and Sort Order (or set Created At, Descending), or remove Created After.',
	];
	it.each([
		['with another order: oldest first', { sortOrder: 'asc' }, order],
		['with another order: by updated_at', { sortBy: 'updated_at' }, order],
		[
			'with another order: by updated_at, newest first',
			{ sortBy: 'updated_at', sortOrder: 'desc' },
			order,
		],
		[
			'a text that is not a date',
			{ createdAfter: '={{ "last tuesday" }}' },
			['Created After "last tuesday" is not a date and time', 'ISO 8601'],
		],
	])('Created After %s', async (_name, options, [message, description]) => {
		const result = await getMany({
			returnAll: true,
			options: { createdAfter: '2025-01-01T00:00:00Z', ...options },
		});
		expect(result.error?.message).toBe(message);
		expect(result.error?.description).toContain(description);
		expect(sandbox.log).toHaveLength(0);
	});

	it('explicit Created At, Descending is the default order and is accepted', async () => {
		const after = newestFirst()[5].created_at;
		const result = await getMany({
			returnAll: true,
			options: { createdAfter: after, sortBy: 'created_at', sortOrder: 'desc' },
		});
		expect(result.output('Node').map((i) => i.json.id)).toEqual(atOrAfter(after).map((t) => t.id));
	});
});

/** A sandbox whose clock the test can pin, so tickets can share one created_at or sit at chosen times. */
async function pinnedSandbox(seed: number, timestampFormat?: TimestampFormat) {
	let pinned: number | undefined;
	const pinnable = await startSandbox({
		seed,
		timestampFormat,
		now: () => pinned ?? Date.now(),
		maxSkewSeconds: 10 ** 9,
	});
	return {
		sandbox: pinnable,
		pin: (ms?: number) => (pinned = ms),
		newTicket: (n: number) =>
			pinnable.store.createTicket({
				subject: `Pinned ${n}`,
				description: 'd',
				customer: { email: `pinned${n}@example.com` },
			}),
		run: async (createdAfter?: unknown) => {
			const options = createdAfter === undefined ? {} : { createdAfter };
			const result = await runNode(
				{ resource: 'ticket', operation: 'getAll', returnAll: true, options },
				credentialsFor(pinnable),
			);
			expect(result.error).toBeUndefined();
			return result.output('Node').map((i) => i.json);
		},
	};
}

it('feeding back the newest created_at seen, as an incremental import does: a ticket created later within the same timestamp as that watermark is imported by the next run; after upserts by id, every ticket is in the copy exactly once', async () => {
	const env = await pinnedSandbox(120);
	const copy = new Map<string, IDataObject>(); // the destination: upsert by id
	const importRun = async (createdAfter?: string) => {
		const items = await env.run(createdAfter);
		for (const ticket of items) copy.set(String(ticket.id), ticket);
		return items;
	};
	try {
		const first = await importRun();
		expect(first).toHaveLength(120);
		const watermark = String(first[0].created_at); // newest first
		// After the run: one more ticket in the very millisecond of the watermark, one later.
		env.pin(Date.parse(watermark));
		const sameInstant = env.newTicket(1);
		env.pin(Date.parse(watermark) + 1000);
		const later = env.newTicket(2);
		env.pin(undefined);
		expect(sameInstant.created_at).toBe(watermark);

		const second = await importRun(watermark);
		expect(second.map((t) => t.id)).toEqual(expect.arrayContaining([sameInstant.id, later.id]));
		expect(second.every((t) => Date.parse(String(t.created_at)) >= Date.parse(watermark))).toBe(
			true,
		);
		const all = env.sandbox.store.listTickets().map((t) => t.id);
		expect([...copy.keys()].sort()).toEqual(all.sort());

		// Nothing new: only the boundary ticket comes again, and the copy does not change.
		const third = await importRun(String(second[0].created_at));
		expect(third.map((t) => t.id)).toEqual([later.id]);
		expect(copy.size).toBe(122);
	} finally {
		await env.sandbox.stop();
	}
});

describe.each([
	['Europe/Berlin', -120],
	['America/New_York', 240],
])('a service that sends created_at without a zone, n8n host in %s', (zone, offsetInJune) => {
	it.each([
		// Fed back through an expression, as a workflow does (picked in the field it would be in the workflow's time zone).
		['as the service sent it (no zone)', '={{ "2025-06-01T12:00:00.000" }}'],
		['with Z', '2025-06-01T12:00:00.000Z'],
	])(
		'Created After %s: the tickets at or after it, none lost and no older one (both read as UTC)',
		async (_name, createdAfter) => {
			// A child process, since TZ cannot change inside a jest test (see createdAfterInZone.tsx).
			const script = path.join(__dirname, 'createdAfterInZone.tsx');
			const env = { ...process.env, TZ: zone };
			const { stdout } = await promisify(execFile)(process.execPath, [script, createdAfter], {
				env,
			});
			const run = JSON.parse(stdout) as ZoneRun;
			expect(run.offsetInJune).toBe(offsetInJune); // the zone was in force, else this proves nothing
			expect(run.sentCreatedAt).toContain('2025-06-01T12:00:00.000'); // the service sent no zone
			expect(run.ids).toEqual(run.expected);
			expect(run.ids).toHaveLength(4);
		},
	);
});

describe.each([
	['epoch-seconds', 1000],
	['epoch-milliseconds', 1],
] as const)('a service that sends created_at as a number (%s)', (format, unitMs) => {
	it('Created After compares it as Unix time (below 1e11: seconds, else milliseconds), given as that number or as ISO', async () => {
		const env = await pinnedSandbox(0, format);
		try {
			const boundary = Date.parse('2025-06-01T12:00:00Z');
			const at = (offsetMs: number, n: number) => {
				env.pin(boundary + offsetMs);
				return env.newTicket(n).id;
			};
			at(-60_000, 1);
			const expected = [at(0, 2), at(60_000, 3)].reverse();
			env.pin(undefined);
			const asNumber = await env.run(`={{ ${boundary / unitMs} }}`);
			expect(asNumber.map((t) => t.created_at)).toContain(boundary / unitMs);
			expect(asNumber.map((t) => t.id)).toEqual(expected);
			expect((await env.run('2025-06-01T12:00:00Z')).map((t) => t.id)).toEqual(expected);
		} finally {
			await env.sandbox.stop();
		}
	});
});
