import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, itemsWorkflow, runWorkflow, useSandbox } from '../../harness';
import { startMisbehavingProxy, type MisbehavingProxy } from '../../harness/misbehavingProxy';
import { byId, NODE } from '../supportTicketNode';
import { peakInFlight } from './peakInFlight';

// Concurrent Requests: the output is the one-by-one loop's (order, pairing, Continue On Fail), no create is sent twice
// under 429/503 and dropped connections, and a rate limit costs no item.
const { sandbox } = useSandbox({ seed: 30 });
let proxy: MisbehavingProxy;

beforeAll(async () => (proxy = await startMisbehavingProxy(sandbox.baseUrl)));
afterAll(async () => proxy.stop());
beforeEach(() => proxy.setRules([]));

const credentials = () => ({ supportTicketApi: credentialsFor(sandbox, proxy.baseUrl) });

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
) {
	const parameters = { ...create, description: 'Created by the concurrency test', options };
	return runWorkflow(itemsWorkflow(items, NODE, parameters, settings), credentials());
}

function subjectCounts(tag: string): Map<string, number> {
	const counts = new Map<string, number>();
	for (const t of sandbox.store.listTickets())
		if (t.subject.startsWith(tag)) counts.set(t.subject, (counts.get(t.subject) ?? 0) + 1);
	return counts;
}

describe('Concurrent Requests 8 under 30% 429/503 and dropped connections', () => {
	it('keeps order, pairing and Continue On Fail per item, and creates no ticket twice', async () => {
		const tag = `conc-${Date.now().toString(36)}`;
		const bad = new Set([7, 41]);
		const items = Array.from({ length: 80 }, (_, i) => ({
			subject: `${tag} #${i}`,
			email: bad.has(i) ? 'not-an-email' : `c${i % 9}@example.com`,
		}));
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
		const tag = `stop-${Date.now().toString(36)}`;
		const items = Array.from({ length: 60 }, (_, i) => ({
			subject: `${tag} #${i}`,
			email: i === 20 || i === 25 ? `bad-${i}` : 'ok@example.com',
		}));
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

describe('Concurrent Requests under a rate limit', () => {
	it('20 requests/s: every item succeeds, once, and the node slows down instead of flooding', async () => {
		const tag = `rate-${Date.now().toString(36)}`;
		const items = Array.from({ length: 50 }, (_, i) => ({
			subject: `${tag} #${i}`,
			email: 'rate@example.com',
		}));
		sandbox.setFaults({ rateLimit: { perSecond: 20 }, latencyMs: 5 });

		const result = await createTickets(items, { concurrentRequests: 8 });

		expect(result.error).toBeUndefined();
		expect(result.output('Node').map((o) => o.json.subject)).toEqual(items.map((i) => i.subject));
		expect([...subjectCounts(tag).values()]).toEqual(items.map(() => 1));
		const refused = sandbox.log.filter((e) => e.fault === 429).length;
		// Each refusal holds back every request until Retry-After: far fewer refusals than items.
		expect(refused).toBeLessThanOrEqual(items.length / 2);
	});
});

describe('Concurrent Requests when the service asks for a longer wait than the node waits', () => {
	it('Retry-After of 2 hours: every item ends at once with the wait in its error, none held back for hours', async () => {
		const tag = `long-wait-${Date.now().toString(36)}`;
		const items = Array.from({ length: 12 }, (_, i) => ({
			subject: `${tag} #${i}`,
			email: 'wait@example.com',
		}));
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
});

describe('Concurrent Requests on other operations', () => {
	it('reply Get Many for many tickets: each ticket’s replies stay together, in input order', async () => {
		const tickets = sandbox.store.listTickets();
		sandbox.setFaults({ latencyMs: [2, 10] });
		const result = await runWorkflow(
			itemsWorkflow(
				tickets.map((t) => ({ id: t.id })),
				NODE,
				{
					resource: 'reply',
					operation: 'getAll',
					ticketId: byId('={{ $json.id }}'),
					returnAll: true,
					options: { concurrentRequests: 6 },
				},
			),
			credentials(),
		);
		expect(result.error).toBeUndefined();
		const expected = tickets.flatMap((t, item) =>
			sandbox.store.listReplies(t.id).map((r) => ({ id: r.id, item })),
		);
		expect(expected.length).toBeGreaterThan(0);
		expect(
			result
				.output('Node')
				.map((o) => ({ id: o.json.id, item: (o.pairedItem as { item: number }).item })),
		).toEqual(expected);
		expect(peakInFlight(sandbox.log)).toBeGreaterThan(1);
	});

	it('Concurrent Requests 1 sends one item after another, in input order', async () => {
		const tag = `seq-${Date.now().toString(36)}`;
		const items = Array.from({ length: 12 }, (_, i) => ({
			subject: `${tag} #${i}`,
			email: 'seq@example.com',
		}));
		sandbox.setFaults({ latencyMs: [2, 10] });
		const result = await createTickets(items, { concurrentRequests: 1 });
		expect(result.error).toBeUndefined();
		expect(peakInFlight(sandbox.log)).toBe(1);
		expect(sandbox.log.map((e) => (e.body as IDataObject | undefined)?.subject)).toEqual(
			items.map((i) => i.subject),
		);
	});

	it.each([
		[0, '0'],
		[1001, '1001'],
		['={{ "many" }}', '"many"'],
	])(
		'Concurrent Requests %p is refused before any request, naming the range',
		async (concurrentRequests, shown) => {
			const result = await createTickets(
				[
					{ subject: 'a', email: 'a@example.com' },
					{ subject: 'b', email: 'b@example.com' },
				],
				{ concurrentRequests },
			);
			expect(result.error?.message).toBe(
				`Concurrent Requests must be a whole number from 1 to 1,000, not ${shown}`,
			);
			expect(sandbox.log).toHaveLength(0);
		},
	);
});

describe('Concurrent Requests above 100', () => {
	it('300 items at 300: starts at 16, widens past 100, output in input order', async () => {
		const tag = `wide-${Date.now().toString(36)}`;
		const items = Array.from({ length: 300 }, (_, i) => ({
			subject: `${tag} #${i}`,
			email: `w${i % 7}@example.com`,
		}));
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
});
