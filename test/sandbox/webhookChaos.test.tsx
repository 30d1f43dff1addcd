import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Sandbox, startSandbox, type WebhookChaosOptions, type WebhookCounters } from '../../sandbox';
import { expectRefusedSettings, signForTest, TestClient, TestClock } from './testClient';
import { type RecordedDelivery, startRecordingReceiver, type RecordingReceiver } from './recordingReceiver';

const EVENTS = 400;

/** Event number of evt_<n>. */
const seqOf = (delivery: RecordedDelivery): number => Number(delivery.payload.id.slice('evt_'.length));

/** Arrivals carrying an event older than one that arrived before them. */
function outOfOrder(received: readonly RecordedDelivery[]): number {
	let max = 0;
	let count = 0;
	for (const delivery of received) {
		const seq = seqOf(delivery);
		if (seq < max) count++;
		max = Math.max(max, seq);
	}
	return count;
}

describe('sandbox webhook chaos', () => {
	const clock = new TestClock();
	const sandboxes: Sandbox[] = [];
	const receivers: RecordingReceiver[] = [];

	const start = async (chaos?: WebhookChaosOptions): Promise<Sandbox> => {
		const sandbox = await startSandbox({ now: clock.now, webhookChaos: chaos });
		sandboxes.push(sandbox);
		return sandbox;
	};
	const receiver = async (respond?: Parameters<typeof startRecordingReceiver>[0]): Promise<RecordingReceiver> => {
		const started = await startRecordingReceiver(respond);
		receivers.push(started);
		return started;
	};
	/** Emits `count` events and waits until every copy has settled. */
	const emitMany = async (sandbox: Sandbox, count = EVENTS): Promise<void> => {
		for (let i = 0; i < count; i++) sandbox.emit('ticket.updated', { id: `tkt_${i + 1}` });
		await sandbox.webhooksIdle();
	};
	const flags = (sandbox: Sandbox): string[] => sandbox.deliveries.map((d) => `${d.id}${d.dropped ? ' dropped' : ''}${d.duplicate ? ' duplicate' : ''}`);

	afterEach(async () => {
		await Promise.all(sandboxes.splice(0).map((s) => s.stop()));
		await Promise.all(receivers.splice(0).map((r) => r.close()));
	});

	it('drops and duplicates at the configured rates; what arrives matches the counters', async () => {
		const sandbox = await start({ dropRate: 0.2, duplicateRate: 0.15, seed: 42 });
		const target = await receiver();
		sandbox.addWebhook({ url: target.url });
		await emitMany(sandbox);

		const counters = sandbox.webhookCounters();
		console.log(`chaos drop 0.2 / duplicate 0.15 over ${EVENTS} events: ${JSON.stringify(counters)}`);
		expect(counters.deliveries).toBe(EVENTS);
		// Bounds: about 4 standard deviations around the expected share.
		expect(counters.dropped).toBeGreaterThan(EVENTS * 0.2 - 32);
		expect(counters.dropped).toBeLessThan(EVENTS * 0.2 + 32);
		const sent = EVENTS - counters.dropped;
		expect(counters.duplicated).toBeGreaterThan(sent * 0.15 - 30);
		expect(counters.duplicated).toBeLessThan(sent * 0.15 + 30);
		expect(counters).toMatchObject({ delivered: sent + counters.duplicated, failed: 0, pending: 0, retried: 0, reordered: 0 });
		expect(target.received).toHaveLength(counters.delivered);

		const arrivals = new Map<string, number>();
		for (const delivery of target.received) arrivals.set(delivery.payload.id, (arrivals.get(delivery.payload.id) ?? 0) + 1);
		const expected = new Map<string, number>();
		for (const delivery of sandbox.deliveries) if (!delivery.dropped) expected.set(delivery.id, (expected.get(delivery.id) ?? 0) + 1);
		expect(arrivals).toEqual(expected);
		// A duplicate is the same event: same id and the same body, each copy validly signed.
		const copies = target.received.filter((d) => arrivals.get(d.payload.id) === 2);
		expect(copies.length).toBe(2 * counters.duplicated);
		for (const delivery of copies) {
			const twin = copies.find((other) => other !== delivery && other.payload.id === delivery.payload.id);
			expect(twin?.body).toBe(delivery.body);
			const timestamp = String(delivery.headers['x-api-timestamp']);
			expect(delivery.headers['x-api-signature']).toBe(signForTest(sandbox.apiSecret, timestamp, 'POST', delivery.path, delivery.body));
		}
	});

	it('is seeded: the same seed drops and duplicates the same deliveries, another seed others', async () => {
		const runs: string[][] = [];
		for (const seed of [5, 5, 6]) {
			const sandbox = await start({ dropRate: 0.3, duplicateRate: 0.3, seed });
			sandbox.addWebhook({ url: (await receiver()).url });
			await emitMany(sandbox, 100);
			runs.push(flags(sandbox));
		}
		expect(runs[1]).toEqual(runs[0]);
		expect(runs[2]).not.toEqual(runs[0]);
		expect(runs[0].filter((f) => f.endsWith('dropped')).length).toBeGreaterThan(10);
	});

	it('reorders within the window: arrivals out of order are counted, and nothing is lost', async () => {
		const sandbox = await start({ reorderWindow: 8, reorderHoldMs: 50, seed: 3 });
		const target = await receiver();
		sandbox.addWebhook({ url: target.url });
		await emitMany(sandbox, 203); // not a multiple of 8: the last 3 go out when the hold time ends

		const counters = sandbox.webhookCounters();
		expect(counters.reordered).toBeGreaterThan(50);
		// One copy in flight at a time: the receiver sees exactly the order the sandbox sent.
		expect(outOfOrder(target.received)).toBe(counters.reordered);
		expect(target.received.map(seqOf).sort((a, b) => a - b)).toEqual(Array.from({ length: 203 }, (_, i) => i + 1));
		// Shuffled only within windows of 8: no event moves past its window.
		target.received.forEach((delivery, position) => expect(Math.floor((seqOf(delivery) - 1) / 8)).toBe(Math.floor(position / 8)));
	});

	it('retries non-2xx answers with doubling backoff, re-signing each attempt with a fresh timestamp', async () => {
		const sandbox = await start({ maxAttempts: 4, backoffMs: 40, seed: 1 });
		const attemptsById = new Map<string, number>();
		// Each event is refused twice (500, then 404 as n8n answers for an inactive workflow), then accepted.
		const target = await receiver((delivery) => {
			const attempt = (attemptsById.get(delivery.payload.id) ?? 0) + 1;
			attemptsById.set(delivery.payload.id, attempt);
			clock.advance(2000); // so a retry signed "now" has a different timestamp
			return attempt === 1 ? 500 : attempt === 2 ? 404 : 200;
		});
		sandbox.addWebhook({ url: target.url });
		await emitMany(sandbox, 5);

		expect(sandbox.webhookCounters()).toMatchObject({ deliveries: 5, delivered: 5, failed: 0, retried: 10, attempts: 15, pending: 0 });
		expect(sandbox.deliveries.map((d) => [d.attempts, d.status])).toEqual(Array.from({ length: 5 }, () => [3, 200]));
		const first = target.received.filter((d) => d.payload.id === 'evt_1');
		expect(first).toHaveLength(3);
		expect(first[1].at - first[0].at).toBeGreaterThanOrEqual(39);
		expect(first[2].at - first[1].at).toBeGreaterThanOrEqual(79);
		const timestamps = first.map((d) => String(d.headers['x-api-timestamp']));
		expect(new Set(timestamps).size).toBe(3);
		for (const delivery of first) {
			expect(delivery.body).toBe(first[0].body);
			expect(delivery.headers['x-api-signature']).toBe(signForTest(sandbox.apiSecret, String(delivery.headers['x-api-timestamp']), 'POST', delivery.path, delivery.body));
		}
	});

	it('gives up after maxAttempts (refused connection and error status) and counts the failures', async () => {
		const sandbox = await start({ maxAttempts: 3, backoffMs: 5 });
		const gone = await receiver();
		await gone.close();
		const failing = await receiver(503);
		sandbox.addWebhook({ url: gone.url });
		sandbox.addWebhook({ url: failing.url });
		await emitMany(sandbox, 2);
		expect(sandbox.deliveries.map((d) => [d.webhookId, d.attempts, d.status ?? d.error?.slice(0, 24)])).toEqual([
			['whk_1', 3, expect.stringContaining('ECONNREFUSED')],
			['whk_2', 3, 503],
			['whk_1', 3, expect.stringContaining('ECONNREFUSED')],
			['whk_2', 3, 503],
		]);
		expect(failing.received).toHaveLength(6);
		expect(sandbox.webhookCounters()).toMatchObject({ deliveries: 4, delivered: 0, failed: 4, retried: 8, attempts: 12, pending: 0 });
	});

	it('catches up after the receiver was down: retried deliveries arrive after newer ones', async () => {
		const sandbox = await start({ maxAttempts: 5, backoffMs: 100 });
		// The receiver is down for the first request only. One delivery at a time per receiver, in
		// order: evt_2 goes out as soon as evt_1's first attempt is answered, and evt_1's retry,
		// queued after its backoff, waits behind evt_2 whatever the machine's speed.
		let answered = 0;
		const target = await receiver(() => (answered++ === 0 ? 503 : 200));
		sandbox.addWebhook({ url: target.url });
		sandbox.emit('ticket.updated', { id: 'tkt_1' });
		sandbox.emit('ticket.updated', { id: 'tkt_2' });
		await sandbox.webhooksIdle();
		expect(target.received.map((d) => d.payload.id)).toEqual(['evt_1', 'evt_2', 'evt_1']);
		expect(sandbox.deliveries.map((d) => [d.id, d.attempts, d.status])).toEqual([
			['evt_1', 2, 200],
			['evt_2', 1, 200],
		]);
		expect(sandbox.webhookCounters()).toMatchObject({ delivered: 2, retried: 1, reordered: 1 });
	});

	it('switches at run time through the admin API, validates settings and resets counters', async () => {
		const sandbox = await start();
		const client = new TestClient(sandbox.baseUrl);
		try {
			const target = await receiver();
			sandbox.addWebhook({ url: target.url });
			const set = await client.raw('POST', '/__sandbox/webhooks/chaos', '{"dropRate":1,"seed":4}');
			expect(set.status).toBe(200);
			expect(set.json).toEqual({ data: { chaos: { dropRate: 1, seed: 4 }, counters: expect.objectContaining({ deliveries: 0 }) } });
			await emitMany(sandbox, 3);
			expect(target.received).toHaveLength(0);
			const counters = (await client.raw('GET', '/__sandbox/webhooks/counters')).json as { data: WebhookCounters };
			expect(counters.data).toMatchObject({ deliveries: 3, dropped: 3, delivered: 0 });
			expect(((await client.raw('GET', '/__sandbox/state')).json as { data: Record<string, unknown> }).data).toMatchObject({
				webhook_chaos: { dropRate: 1, seed: 4 },
				webhook_counters: { dropped: 3 },
			});

			expect((await client.raw('POST', '/__sandbox/webhooks/chaos', '{}')).json).toMatchObject({ data: { chaos: {} } });
			await emitMany(sandbox, 2);
			expect(target.received).toHaveLength(2);
			expect((await client.raw('DELETE', '/__sandbox/webhooks/counters')).status).toBe(204);
			expect(sandbox.webhookCounters()).toMatchObject({ deliveries: 0, dropped: 0, delivered: 0 });

			const idle = await client.raw('GET', '/__sandbox/webhooks/idle?timeoutMs=1000');
			expect(idle.json).toMatchObject({ data: { idle: true, counters: { pending: 0 } } });
			await expectRefusedSettings(client, '/__sandbox/webhooks/chaos', [
				['{"dropRate":1.5}', 'dropRate must be a number between 0 and 1'],
				['{"delayMs":[10,5]}', 'delayMs must be'],
				['{"maxAttempts":0}', 'maxAttempts must be an integer from 1 to 20'],
				['{"shuffle":true}', 'unknown webhook chaos option(s): shuffle'],
			]);
			expect(sandbox.getWebhookChaos()).toEqual({});
		} finally {
			client.close();
		}
	});

	it('stop() aborts delayed, held and retry-waiting deliveries at once', async () => {
		const hanging = http.createServer(() => {
			/* never answers */
		});
		await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
		try {
			const sandbox = await start({ delayMs: 60_000, reorderWindow: 10, reorderHoldMs: 60_000, maxAttempts: 5, backoffMs: 60_000 });
			sandbox.addWebhook({ url: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/` });
			for (let i = 0; i < 3; i++) sandbox.emit('ticket.created', {});
			const started = Date.now();
			await sandbox.stop();
			expect(Date.now() - started).toBeLessThan(5000);
			expect(sandbox.deliveries.every((d) => d.done && d.error === 'aborted: sandbox stopped')).toBe(true);
			expect(sandbox.webhookCounters()).toMatchObject({ failed: 3, pending: 0, attempts: 0 });
		} finally {
			hanging.closeAllConnections();
			await new Promise((resolve) => hanging.close(resolve));
		}
	});
});
