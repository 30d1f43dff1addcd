import { sleep } from 'n8n-workflow';

import { DEFAULT_RETRY_POLICY, parseRetryAfter } from './retryPolicy';

/** What the limiter reads of n8n's full response. */
interface ResponseLike {
	statusCode?: number;
	headers?: Record<string, unknown>;
}

/** 429 and 503 say "too much, nothing was processed": the signal to slow down. */
const SLOW_DOWN_STATUSES = [429, 503];
/**
 * Rate limits count per second: the window successes are counted in, and the pace of growing back.
 */
const SECOND_MS = 1000;
/** Near the level that was refused last, the allowance probes upwards this slowly. */
const PROBE_EVERY_MS = 10_000;
/**
 * A run starts with this many at once and doubles per round of successes until the first refusal.
 */
const FIRST_ALLOWANCE = 16;

/**
 * How many requests of one node run may be on their way at once (one instance per
 * run, never module state): it settles at the rate the service accepts. The rules are
 * in docs/operations.md (Concurrent Requests).
 */
export class RequestLimiter {
	private allowance: number;
	/** Until the first refusal, every success adds one. */
	private startingUp = true;
	/** The allowance under which the last refusal came; probing near it goes slowly. */
	private refusedAt = Number.POSITIVE_INFINITY;
	private inFlight = 0;
	private pausedUntil = 0;
	/** Counts decreases: an attempt sent under an older allowance does not lower it again. */
	private decreases = 0;
	/** When the allowance last changed (or was refused), and the successes since. */
	private changedAt = 0;
	private successesSinceChange = 0;
	/** Successes of the last second: when answered, and how long each was on its way. */
	private recent: Array<{ at: number; roundTripMs: number }> = [];
	private waiting: Array<() => void> = [];

	constructor(
		readonly maxConcurrency: number,
		private readonly now: () => number = Date.now,
	) {
		this.allowance = Math.min(maxConcurrency, FIRST_ALLOWANCE);
	}

	/** Requests currently allowed at once (for tests and summaries). */
	get concurrency(): number {
		return this.allowance;
	}

	/**
	 * Sends one attempt once a slot is free and no
	 * `Retry-After` is pending, and learns from its answer.
	 */
	async run<T extends ResponseLike>(send: () => Promise<T>): Promise<T> {
		await this.acquire();
		const sentUnder = this.decreases;
		const sentAt = this.now();
		try {
			const response = await send();
			this.learn(response, sentUnder, sentAt);
			return response;
		} finally {
			this.inFlight--;
			this.wakeFreeSlots();
		}
	}

	private async acquire(): Promise<void> {
		for (;;) {
			const pause = this.pausedUntil - this.now();
			if (pause > 0) {
				await sleep(pause);
				continue;
			}
			if (this.inFlight < this.allowance) {
				this.inFlight++;
				return;
			}
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		}
	}

	/**
	 * As many waiters as there are free slots check again, first come
	 * first; one that finds none queues up again.
	 */
	private wakeFreeSlots(): void {
		for (let free = this.allowance - this.inFlight; free > 0 && this.waiting.length > 0; free--)
			this.waiting.shift()?.();
	}

	private learn(response: ResponseLike, sentUnder: number, sentAt: number): void {
		const status = response.statusCode ?? 0;
		const now = this.now();
		while (this.recent.length > 0 && now - this.recent[0].at >= SECOND_MS) this.recent.shift();
		if (!SLOW_DOWN_STATUSES.includes(status)) {
			this.recent.push({ at: now, roundTripMs: now - sentAt });
			this.growBack(now);
			return;
		}
		// Holds back the whole run; a wait beyond the retry budget holds back nothing
		// (each item then fails at once, saying so).
		const retryAfterMs = parseRetryAfter(
			response.headers?.['retry-after'],
			now,
			response.headers?.date,
		);
		if (retryAfterMs !== undefined && retryAfterMs <= DEFAULT_RETRY_POLICY.budgetMs)
			this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
		// Any refusal restarts the second without refusals, from when sending may resume.
		this.changedAt = Math.max(now, this.pausedUntil);
		this.successesSinceChange = 0;
		if (sentUnder !== this.decreases) return;
		this.startingUp = false;
		this.decreases++;
		this.refusedAt = this.allowance;
		// Little's law: the round trips answered in the last second, summed,
		// are the requests it kept up with at once.
		const keptUpWith =
			this.recent.length > 0
				? Math.floor(this.recent.reduce((sum, s) => sum + s.roundTripMs, 0) / SECOND_MS)
				: Number.POSITIVE_INFINITY;
		this.allowance = Math.max(1, Math.min(Math.floor(this.allowance / 2), keptUpWith));
	}

	private growBack(now: number): void {
		if (this.allowance >= this.maxConcurrency) return;
		if (this.startingUp) {
			this.allowance++;
			return;
		}
		this.successesSinceChange++;
		// Growing back per round trip would hit a per-second limit again within a fraction of a second.
		const every = this.allowance + 1 === this.refusedAt ? PROBE_EVERY_MS : SECOND_MS;
		if (this.successesSinceChange >= this.allowance && now - this.changedAt >= every) {
			this.allowance++;
			this.changedAt = now;
			this.successesSinceChange = 0;
		}
	}
}
