import { type Sandbox, startSandbox, type WebhookChaosOptions } from '../../sandbox';
import { signForTest, TestClock } from './testClient';
import {
	type RecordedDelivery,
	startRecordingReceiver,
	type RecordingReceiver,
} from './recordingReceiver';

const EVENTS = 400;

/** Event number of evt_<n>. */
const seqOf = (delivery: RecordedDelivery): number =>
	Number(delivery.payload.id.slice('evt_'.length));

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
	const receiver = async (
		respond?: Parameters<typeof startRecordingReceiver>[0],
	): Promise<RecordingReceiver> => {
		const started = await startRecordingReceiver(respond);
		receivers.push(started);
		return started;
	};
	/** Emits `count` events and waits until every copy has settled. */
	const emitMany = async (sandbox: Sandbox, count = EVENTS): Promise<void> => {
		for (let i = 0; i < count; i++) sandbox.emit('ticket.updated', { id: `tkt_${i + 1}` });
		await sandbox.webhooksIdle();
	};

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
		console.log(
			`chaos drop 0.2 / duplicate 0.15 over ${EVENTS} events: ${JSON.stringify(counters)}`,
		);
		expect(counters.deliveries).toBe(EVENTS);
		// Bounds: about 4 standard deviations around the expected share.
		expect(counters.dropped).toBeGreaterThan(EVENTS * 0.2 - 32);
		expect(counters.dropped).toBeLessThan(EVENTS * 0.2 + 32);
		const sent = EVENTS - counters.dropped;
		expect(counters.duplicated).toBeGreaterThan(sent * 0.15 - 30);
		expect(counters.duplicated).toBeLessThan(sent * 0.15 + 30);
		expect(counters).toMatchObject({
			delivered: sent + counters.duplicated,
			failed: 0,
			pending: 0,
			retried: 0,
			reordered: 0,
		});
		expect(target.received).toHaveLength(counters.delivered);

		const arrivals = new Map<string, number>();
		for (const delivery of target.received)
			arrivals.set(delivery.payload.id, (arrivals.get(delivery.payload.id) ?? 0) + 1);
		const expected = new Map<string, number>();
		for (const delivery of sandbox.deliveries)
			if (!delivery.dropped) expected.set(delivery.id, (expected.get(delivery.id) ?? 0) + 1);
		expect(arrivals).toEqual(expected);
		// A duplicate is the same event: same id and the same body, each copy validly signed.
		const copies = target.received.filter((d) => arrivals.get(d.payload.id) === 2);
		expect(copies.length).toBe(2 * counters.duplicated);
		for (const delivery of copies) {
			const twin = copies.find(
				(other) => other !== delivery && other.payload.id === delivery.payload.id,
			);
			expect(twin?.body).toBe(delivery.body);
			const timestamp = String(delivery.headers['x-api-timestamp']);
			expect(delivery.headers['x-api-signature']).toBe(
				signForTest(sandbox.apiSecret, timestamp, 'POST', delivery.path, delivery.body),
			);
		}
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
		expect(target.received.map(seqOf).sort((a, b) => a - b)).toEqual(
			Array.from({ length: 203 }, (_, i) => i + 1),
		);
		// Shuffled only within windows of 8: no event moves past its window.
		target.received.forEach((delivery, position) =>
			expect(Math.floor((seqOf(delivery) - 1) / 8)).toBe(Math.floor(position / 8)),
		);
	});

	it('retries non-2xx answers, re-signing each attempt with a fresh timestamp', async () => {
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

		expect(sandbox.webhookCounters()).toMatchObject({
			deliveries: 5,
			delivered: 5,
			failed: 0,
			retried: 10,
			attempts: 15,
			pending: 0,
		});
		expect(sandbox.deliveries.map((d) => [d.attempts, d.status])).toEqual(
			Array.from({ length: 5 }, () => [3, 200]),
		);
		const first = target.received.filter((d) => d.payload.id === 'evt_1');
		expect(first).toHaveLength(3);
		const timestamps = first.map((d) => String(d.headers['x-api-timestamp']));
		expect(new Set(timestamps).size).toBe(3);
		for (const delivery of first) {
			expect(delivery.body).toBe(first[0].body);
			expect(delivery.headers['x-api-signature']).toBe(
				signForTest(
					sandbox.apiSecret,
					String(delivery.headers['x-api-timestamp']),
					'POST',
					delivery.path,
					delivery.body,
				),
			);
		}
	});
});
