import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { credentialsFor, itemsWorkflow, runWorkflow, useSandbox } from '../../harness';
import { startMisbehavingProxy, type MisbehavingProxy } from '../../harness/misbehavingProxy';
import type { RequestLogEntry, Sandbox } from '../../../sandbox';
import { NODE } from '../supportTicketNode';

// Concurrent Requests: the output is the one-by-one loop's (order, pairing, Continue On Fail), no create is sent twice
// under 429/503 and dropped connections, and a rate limit costs no item.
const { sandbox } = useSandbox({ seed: 30 });

/** The most requests the sandbox was answering at the same moment. */
function peakInFlight(log: readonly RequestLogEntry[]): number {
	const edges = log.flatMap((e) => [
		{ at: e.startedAt, step: 1 },
		{ at: e.startedAt + e.durationMs, step: -1 },
	]);
	edges.sort((a, b) => a.at - b.at || a.step - b.step);
	let current = 0;
	let peak = 0;
	for (const { step } of edges) peak = Math.max(peak, (current += step));
	return peak;
}

let proxy: MisbehavingProxy;

beforeAll(async () => (proxy = await startMisbehavingProxy(sandbox.baseUrl)));
afterAll(async () => proxy.stop());
beforeEach(() => proxy.setRules([]));

const create = {
	resource: 'ticket',
	operation: 'create',
	subject: '={{ $json.subject }}',
	customerEmail: '={{ $json.email }}',
};

function createTickets(
	items: IDataObject[],
	options: IDataObject,
	settings: { continueOnFail?: boolean } = {},
	supportTicketApi = credentialsFor(sandbox, proxy.baseUrl),
) {
	const parameters = { ...create, description: 'Created by the concurrency test', options };
	return runWorkflow(itemsWorkflow(items, NODE, parameters, settings), { supportTicketApi });
}

/** `count` items, each with its own subject under a tag (returned) new to the sandbox, and `email(i)`. */
function itemsOf(name: string, count: number, email: (i: number) => string) {
	const tag = `${name}-${Date.now().toString(36)}`;
	const items = Array.from({ length: count }, (_, i) => ({
		subject: `${tag} #${i}`,
		email: email(i),
	}));
	return { tag, items };
}

function subjectCounts(tag: string): Map<string, number> {
	const counts = new Map<string, number>();
	for (const t of sandbox.store.listTickets())
		if (t.subject.startsWith(tag)) counts.set(t.subject, (counts.get(t.subject) ?? 0) + 1);
	return counts;
}

describe('Concurrent Requests 8 under 30% 429/503 and dropped connections', () => {
	it('keeps order, pairing and Continue On Fail per item, and creates no ticket twice', async () => {
		const bad = new Set([7, 41]);
		const { tag, items } = itemsOf('conc', 80, (i) =>
			bad.has(i) ? 'not-an-email' : `c${i % 9}@example.com`,
		);
		sandbox.setFaults({ rate429: 0.15, rate503: 0.15, retryAfter: 0, latencyMs: [5, 15], seed: 7 });
		proxy.setRules([
			{ method: 'POST', times: 2, answer: { kind: 'reset', when: 'before' } },
			{ method: 'POST', times: 2, answer: { kind: 'reset', when: 'after' } },
		]);

		const result = await createTickets(items, { concurrentRequests: 8 }, { continueOnFail: true });

		expect(result.error).toBeUndefined();
		const output = result.output('Node');
		expect(output.map((o) => o.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		for (const index of bad) expect(output[index].json.error).toMatch(/not-an-email/);
		// A dropped create is looked up among the newest tickets: returned if made, sent again if not.
		expect(output.filter((o, i) => !bad.has(i) && o.json.error !== undefined)).toEqual([]);
		expect(proxy.misbehaved).toHaveLength(4);
		const created = output.filter((o) => o.json.id !== undefined);
		expect(created).toHaveLength(items.length - bad.size);
		for (const o of created)
			expect(o.json.subject).toBe(items[(o.pairedItem as { item: number }).item].subject);

		const counts = subjectCounts(tag);
		expect([...counts.values()].filter((n) => n > 1)).toEqual([]);
		expect(counts.size).toBe(created.length);
		expect(
			sandbox.log.some((e) => e.fault === 429) && sandbox.log.some((e) => e.fault === 503),
		).toBe(true);
		expect(peakInFlight(sandbox.log)).toBeGreaterThan(1);
		expect(peakInFlight(sandbox.log)).toBeLessThanOrEqual(8);
	});

	it('without Continue On Fail fails with the error of the first failing item and starts no item after it', async () => {
		const { tag, items } = itemsOf('stop', 60, (i) =>
			i === 20 || i === 25 ? `bad-${i}` : 'ok@example.com',
		);
		sandbox.setFaults({ latencyMs: [5, 15] });

		const result = await createTickets(items, { concurrentRequests: 8 });

		expect(result.error?.message).toMatch(/bad-20/);
		const posts = sandbox.countCalls({ method: 'POST' });
		expect(posts).toBeGreaterThanOrEqual(20);
		// Items already in flight finish; none is started once the failure is known.
		expect(posts).toBeLessThan(20 + 8 + 1);
		expect([...subjectCounts(tag).values()].every((n) => n === 1)).toBe(true);
	});
});

it('Concurrent Requests under a rate limit of 20 requests/s: every item succeeds, once, and the node slows down instead of flooding', async () => {
	const { tag, items } = itemsOf('rate', 50, () => 'rate@example.com');
	sandbox.setFaults({ rateLimit: { perSecond: 20 }, latencyMs: 5 });

	const result = await createTickets(items, { concurrentRequests: 8 });

	expect(result.error).toBeUndefined();
	expect(result.output('Node').map((o) => o.json.subject)).toEqual(items.map((i) => i.subject));
	expect([...subjectCounts(tag).values()]).toEqual(items.map(() => 1));
	// Each refusal holds back every request until Retry-After: far fewer refusals than items.
	const refused = sandbox.log.filter((e) => e.fault === 429).length;
	expect(refused).toBeLessThanOrEqual(items.length / 2);
});

it('Concurrent Requests, Retry-After of 2 hours (longer than the node waits): every item ends at once with the wait in its error, none held back for hours', async () => {
	const { tag, items } = itemsOf('long-wait', 12, () => 'wait@example.com');
	sandbox.setFaults({ rate429: 1, retryAfter: 7200 });

	const started = Date.now();
	const result = await createTickets(items, { concurrentRequests: 4 }, { continueOnFail: true });

	expect(Date.now() - started).toBeLessThan(20_000);
	const output = result.output('Node');
	expect(output.map((o) => (o.pairedItem as { item: number }).item)).toEqual(
		items.map((_, i) => i),
	);
	for (const o of output) expect(String(o.json.error)).toMatch(/asked to wait 7200 s/);
	expect(subjectCounts(tag).size).toBe(0);
}, 30_000);

it.each([
	[0, '0'],
	[1001, '1001'],
	['={{ "many" }}', '"many"'],
])(
	'Concurrent Requests %p is refused before any request, naming the range',
	async (concurrentRequests, shown) => {
		const { items } = itemsOf('range', 2, (i) => `${i}@example.com`);
		const result = await createTickets(items, { concurrentRequests });
		expect(result.error?.message).toBe(
			`Concurrent Requests must be a whole number from 1 to 1,000, not ${shown}`,
		);
		expect(sandbox.log).toHaveLength(0);
	},
);

it('Concurrent Requests above 100, 300 items at 300: starts at 16, widens past 100, output in input order', async () => {
	const { tag, items } = itemsOf('wide', 300, (i) => `w${i % 7}@example.com`);
	// Long enough to handle a round of answers within it (client and sandbox share one process).
	sandbox.setFaults({ latencyMs: 500 });
	// At the sandbox, as each answer is about to go out: requests arrived and not yet answered.
	const inFlight: number[] = [];
	sandbox.setAnswerGate(() => {
		inFlight.push(sandbox.log.filter((e) => e.status === 0).length);
		return undefined;
	});
	const result = await createTickets(items, { concurrentRequests: 300 }).finally(() =>
		sandbox.setAnswerGate(undefined),
	);

	expect(result.error).toBeUndefined();
	const output = result.output('Node');
	expect(output.map((o) => o.json.subject)).toEqual(items.map((i) => i.subject));
	expect(output.map((o) => o.pairedItem)).toEqual(items.map((_, item) => ({ item })));
	expect([...subjectCounts(tag).values()]).toEqual(items.map(() => 1));
	// The slow start is the same as at 100: 16 at first, then one more per success.
	expect(inFlight[0]).toBeLessThanOrEqual(16);
	expect(Math.max(...inFlight)).toBeGreaterThan(100);
	expect(Math.max(...inFlight)).toBeLessThanOrEqual(300);
});

// No item fails for being rate-limited, whatever form Retry-After takes: 0 (no wait below the backoff), or an HTTP date
// on a service clock off from this machine's (read against the answer's Date header).
const ITEMS = 60;

async function createAgainstLimit(service: Sandbox, rateLimit: IDataObject) {
	const { tag, items } = itemsOf('limit', ITEMS, () => 'limit@example.com');
	service.setFaults({ rateLimit: { perSecond: 10, ...rateLimit } });
	const settings = { continueOnFail: true };
	const result = await createTickets(items, {}, settings, credentialsFor(service));
	expect(result.error).toBeUndefined();
	const output = result.output('Node');
	const failed = output.filter((o) => o.json.error !== undefined).map((o) => String(o.json.error));
	const created = service.store.listTickets().filter((t) => t.subject.startsWith(tag)).length;
	return { failed, created };
}

describe.each([
	['the same clock', 0, 0],
	['a clock 3 s behind', -3_000, 'http-date'],
	['a clock 90 s ahead', 90_000, 'http-date'],
] as const)(
	'60 creates against 10 requests/s, on a service with %s',
	(_clock, offsetMs, retryAfter) => {
		const { sandbox } = useSandbox({ now: () => Date.now() + offsetMs });
		const form = retryAfter === 0 ? '"Retry-After: 0"' : 'Retry-After as an HTTP date';
		it(`${form}: every item is created once, no item fails`, async () => {
			const { failed, created } = await createAgainstLimit(sandbox, { retryAfter });
			expect(failed).toEqual([]);
			expect(created).toBe(ITEMS);
		}, 60_000);
	},
);

// Get Many runs input items concurrently: the output is that of one item after another (each item's list whole,
// in input order, paired to its item), and the requests of all lists stay within Concurrent Requests.
const CONCURRENT_REQUESTS = 4;
const byStatus = ['open', 'pending', 'solved', 'on_hold'].flatMap((status) => [
	{ status },
	{ status },
]);
const ticketsByStatus = {
	resource: 'ticket',
	operation: 'getAll',
	returnAll: true,
	filters: { status: '={{ $json.status }}' },
};

async function getMany(
	sandbox: Sandbox,
	credentials: ICredentialDataDecryptedObject,
	items: IDataObject[],
	parameters: IDataObject,
	concurrentRequests: number,
) {
	sandbox.clearLog();
	const options = { ...(parameters.options as IDataObject | undefined), concurrentRequests };
	const workflow = itemsWorkflow(items, NODE, { ...parameters, options });
	const result = await runWorkflow(workflow, { supportTicketApi: credentials });
	if (result.error) throw result.error;
	const listed = result
		.output('Node')
		.map((o) => ({ id: o.json.id, item: (o.pairedItem as { item: number }).item }));
	return { listed, calls: sandbox.log.length, peak: peakInFlight(sandbox.log) };
}

describe('Get Many with several input items at Concurrent Requests 4', () => {
	const { sandbox, credentials } = useSandbox({ seed: 600 });
	it.each([
		{
			name: 'ticket Return All, one status per item',
			items: byStatus,
			parameters: ticketsByStatus,
		},
		{
			name: 'ticket Return All from both ends',
			items: byStatus,
			parameters: { ...ticketsByStatus, options: { readFromBothEnds: true } },
		},
		{
			name: 'customer Return All',
			items: Array.from({ length: 6 }, () => ({})),
			parameters: { resource: 'customer', operation: 'getAll', returnAll: true },
		},
	])(
		'$name: the output of one item after another, at most 4 requests at once',
		async ({ name, items, parameters }) => {
			sandbox.setFaults({ latencyMs: [2, 10] });
			const run = (concurrentRequests: number) =>
				getMany(sandbox, credentials, items, parameters, concurrentRequests);
			const oneByOne = await run(1);
			const concurrent = await run(CONCURRENT_REQUESTS);

			expect(concurrent.listed).toEqual(oneByOne.listed);
			// Every item listed something, in input order, over more than one page each (a cursor chain per item).
			const order = oneByOne.listed.map((l) => l.item);
			expect([...new Set(order)]).toEqual(items.map((_, item) => item));
			expect(oneByOne.calls).toBeGreaterThan(items.length);
			// One item after another (both ends: its two ends at once).
			expect(oneByOne.peak).toBe(name.includes('both ends') ? 2 : 1);
			expect(concurrent.calls).toBe(oneByOne.calls);
			expect(concurrent.peak).toBeGreaterThan(1);
			expect(concurrent.peak).toBeLessThanOrEqual(CONCURRENT_REQUESTS);
		},
	);
});
