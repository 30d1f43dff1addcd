import { RequestLimiter } from '../../../../nodes/shared/transport/concurrency';

/** Unit tests of the pacing rules alone; the engine-level behaviour is in ../SupportTicket/concurrency.test.ts. */
type Answer = { statusCode: number; headers?: Record<string, string> };

function deferred() {
	let resolve: (answer: Answer) => void = () => undefined;
	const promise = new Promise<Answer>((r) => (resolve = r));
	return { promise, resolve };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Successes long enough ago to be outside the last second: a limiter at its maximum, with nothing to learn from. */
async function atMaximum(maxConcurrency: number, clock: { now: number }): Promise<RequestLimiter> {
	const limiter = new RequestLimiter(maxConcurrency, () => clock.now);
	while (limiter.concurrency < maxConcurrency) await limiter.run(async () => ({ statusCode: 200 }));
	clock.now += 60_000;
	return limiter;
}

describe('RequestLimiter', () => {
	it('starts with 16 at once, adds one per success (doubling per round trip) up to the maximum', async () => {
		const limiter = new RequestLimiter(1000);
		const active: Array<(answer: Answer) => void> = [];
		const runs = Array.from({ length: 3000 }, () =>
			limiter.run(() => new Promise<Answer>((resolve) => active.push(resolve))),
		);
		// Everything on its way is answered together, as by a service of fixed latency.
		const rounds: number[] = [];
		for (await tick(); active.length > 0; await tick()) {
			rounds.push(active.length);
			for (const resolve of active.splice(0)) resolve({ statusCode: 200 });
		}
		await Promise.all(runs);
		expect(rounds).toEqual([16, 32, 64, 128, 256, 512, 1000, 992]);
	});

	it('halves once for refusals of requests sent together', async () => {
		const limiter = await atMaximum(8, { now: 0 });
		await Promise.all(
			Array.from({ length: 8 }, () => limiter.run(async () => ({ statusCode: 429 }))),
		);
		expect(limiter.concurrency).toBe(4);
		await limiter.run(async () => ({ statusCode: 503 }));
		expect(limiter.concurrency).toBe(2);
		await limiter.run(async () => ({ statusCode: 429 }));
		await limiter.run(async () => ({ statusCode: 429 }));
		expect(limiter.concurrency).toBe(1);
	});

	it('lowers further, to what the service kept up with in the last second', async () => {
		const clock = { now: 0 };
		const limiter = await atMaximum(32, clock);
		// 20 pairs of successes, 50 ms each, within the second: on average 2 on their way at once.
		for (let i = 0; i < 20; i++) {
			const gate = deferred();
			const pair = [limiter.run(() => gate.promise), limiter.run(() => gate.promise)];
			await tick();
			clock.now += 50;
			gate.resolve({ statusCode: 200 });
			await Promise.all(pair);
		}
		await limiter.run(async () => ({ statusCode: 429 }));
		expect(limiter.concurrency).toBe(2);
	});

	it('grows back one step per second of successes, and one per ten seconds next to the refused level', async () => {
		const clock = { now: 0 };
		const limiter = await atMaximum(8, clock);
		await limiter.run(async () => ({ statusCode: 429 }));
		expect(limiter.concurrency).toBe(4);
		// Within the second of the refusal, successes do not raise it: a per-second limit would refuse again.
		for (let i = 0; i < 100; i++) await limiter.run(async () => ({ statusCode: 201 }));
		expect(limiter.concurrency).toBe(4);
		const levels: number[] = [];
		for (let second = 0; second < 12; second++) {
			clock.now += 1000;
			for (let i = 0; i < 8; i++) await limiter.run(async () => ({ statusCode: 200 }));
			levels.push(limiter.concurrency);
		}
		expect(levels).toEqual([5, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7]);
		clock.now += 10_000;
		await Promise.all(
			Array.from({ length: 8 }, () => limiter.run(async () => ({ statusCode: 200 }))),
		);
		expect(limiter.concurrency).toBe(8);
	});

	it('grows per second again once past the level that was refused', async () => {
		const clock = { now: 0 };
		const limiter = await atMaximum(16, clock);
		await limiter.run(async () => ({ statusCode: 429 }));
		await limiter.run(async () => ({ statusCode: 503 }));
		expect(limiter.concurrency).toBe(4);
		const levels: number[] = [];
		for (const wait of [1000, 1000, 1000, 1000, 9000, 1000, 1000]) {
			clock.now += wait;
			for (let i = 0; i < 16; i++) await limiter.run(async () => ({ statusCode: 200 }));
			levels.push(limiter.concurrency);
		}
		expect(levels).toEqual([5, 6, 7, 7, 8, 9, 10]);
	});

	it('counts the second without refusals from the end of a Retry-After', async () => {
		const clock = { now: 0 };
		const limiter = await atMaximum(8, clock);
		await limiter.run(async () => ({ statusCode: 429 }));
		await limiter.run(async () => ({ statusCode: 429, headers: { 'retry-after': '2' } }));
		expect(limiter.concurrency).toBe(2);
		clock.now += 2500; // half a second after sending may resume
		for (let i = 0; i < 4; i++) await limiter.run(async () => ({ statusCode: 200 }));
		expect(limiter.concurrency).toBe(2);
		clock.now += 500;
		await limiter.run(async () => ({ statusCode: 200 }));
		expect(limiter.concurrency).toBe(3);
	});

	it('holds back every attempt of the run until Retry-After has passed', async () => {
		const limiter = new RequestLimiter(4);
		await limiter.run(async () => ({ statusCode: 429, headers: { 'retry-after': '0.2' } }));
		const started = Date.now();
		const sentAt: number[] = [];
		await Promise.all(
			Array.from({ length: 3 }, () =>
				limiter.run(async () => (sentAt.push(Date.now() - started), { statusCode: 200 })),
			),
		);
		expect(Math.min(...sentAt)).toBeGreaterThanOrEqual(150);
	});

	it('frees the slot of an attempt that threw (dropped connection)', async () => {
		const limiter = new RequestLimiter(1);
		await expect(limiter.run(async () => Promise.reject(new Error('ECONNRESET')))).rejects.toThrow(
			'ECONNRESET',
		);
		await expect(limiter.run(async () => ({ statusCode: 200 }))).resolves.toEqual({
			statusCode: 200,
		});
	});
});
