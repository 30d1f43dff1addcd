import { sleep } from 'n8n-workflow';

import { parseRetryAfter } from './retryPolicy';

/** What the limiter needs to see of an answer: n8n's full response. */
interface ResponseLike {
	statusCode?: number;
	headers?: Record<string, unknown>;
}

/** 429 and 503 say "too much, nothing was processed": the signal to slow down. */
const SLOW_DOWN_STATUSES = [429, 503];
/** Rate limits count requests per second, so the allowance grows back per second, not per round trip. */
const INCREASE_EVERY_MS = 1000;

/**
 * How many requests of one node run may be on their way at once, shared by all items of the run
 * (one instance per execution, never module state). Additive increase, multiplicative decrease:
 * every 429/503 halves the allowance (once per round of requests, so a burst of refusals to
 * requests sent together counts once); it grows back by one after a second and a round of
 * successes without a refusal, up to the maximum the user set. Growing per round trip instead
 * (30 ms against a nearby service) ran into a per-second limit again within a fraction of a
 * second, with every request in flight refused. A `Retry-After` holds back every request of the
 * run, not only the refused one, so a rate-limited service sees one attempt at a time after
 * repeated refusals, as from a node that sends one request after another.
 */
export class RequestLimiter {
	private allowance: number;
	private inFlight = 0;
	private pausedUntil = 0;
	/** Counts decreases: an attempt sent under an older allowance does not lower it again. */
	private decreases = 0;
	/** When the allowance last changed, and the successes since. */
	private changedAt = 0;
	private successesSinceChange = 0;
	private waiting: Array<() => void> = [];

	constructor(
		readonly maxConcurrency: number,
		private readonly now: () => number = Date.now,
	) {
		this.allowance = maxConcurrency;
	}

	/** Requests currently allowed at once (for tests and summaries). */
	get concurrency(): number {
		return Math.floor(this.allowance);
	}

	/** Sends one attempt once a slot is free and no `Retry-After` is pending, and learns from its answer. */
	async run<T extends ResponseLike>(send: () => Promise<T>): Promise<T> {
		await this.acquire();
		const sentUnder = this.decreases;
		try {
			const response = await send();
			this.learn(response, sentUnder);
			return response;
		} finally {
			this.inFlight--;
			this.wakeAll();
		}
	}

	private async acquire(): Promise<void> {
		for (;;) {
			const pause = this.pausedUntil - this.now();
			if (pause > 0) {
				await sleep(pause);
				continue;
			}
			if (this.inFlight < Math.floor(this.allowance)) {
				this.inFlight++;
				return;
			}
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		}
	}

	/** Waiters check again in the order they came; those that find no slot queue up again. */
	private wakeAll(): void {
		const waiting = this.waiting;
		this.waiting = [];
		for (const resolve of waiting) resolve();
	}

	private learn(response: ResponseLike, sentUnder: number): void {
		const status = response.statusCode ?? 0;
		const now = this.now();
		if (!SLOW_DOWN_STATUSES.includes(status)) {
			if (this.allowance >= this.maxConcurrency) return;
			this.successesSinceChange++;
			if (this.successesSinceChange >= this.allowance && now - this.changedAt >= INCREASE_EVERY_MS) {
				this.allowance = Math.min(this.maxConcurrency, this.allowance + 1);
				this.changedAt = now;
				this.successesSinceChange = 0;
			}
			return;
		}
		const retryAfterMs = parseRetryAfter(response.headers?.['retry-after'], now);
		if (retryAfterMs !== undefined) this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
		// Any refusal restarts the second without refusals, counted from when sending may resume.
		this.changedAt = Math.max(now, this.pausedUntil);
		this.successesSinceChange = 0;
		if (sentUnder === this.decreases) {
			this.allowance = Math.max(1, Math.floor(this.allowance / 2));
			this.decreases++;
		}
	}
}
