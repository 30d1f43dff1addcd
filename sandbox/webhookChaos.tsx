/**
 * Webhook chaos: what a real service's delivery does to a receiver on a bad day. Deliveries
 * can be dropped, sent twice, delayed, held and shuffled within a window, and failed ones
 * retried with backoff. Every decision comes from a seeded PRNG, so a configuration replays
 * the same drops and duplicates; with delays on, arrival order also depends on timing.
 */
import { drawMilliseconds, milliseconds, probability, seedSetting } from './chaosSettings';
import { createRandom, type Random } from './prng';

export interface WebhookChaosOptions {
	/** Probability (0..1) that a delivery is never sent. */
	dropRate?: number;
	/** Probability (0..1) that a delivery is sent twice (same event id and body, each copy signed on its own). */
	duplicateRate?: number;
	/** Wait before a delivery is sent: fixed, or uniformly random in [min, max]; drawn per copy. */
	delayMs?: number | [number, number];
	/** Hold deliveries until this many are waiting (or reorderHoldMs passed), then send them shuffled. 1 = off. */
	reorderWindow?: number;
	/** Longest time a held delivery waits for its window to fill (default 200). */
	reorderHoldMs?: number;
	/** Deliveries in flight at once per webhook (default 1). */
	concurrency?: number;
	/** Attempts per delivery, including the first (default 1: no retry beyond one reconnect). */
	maxAttempts?: number;
	/** Wait before the first retry, doubled for each further one (default 500). */
	backoffMs?: number;
	/** Upper bound of the retry wait (default 30000). */
	maxBackoffMs?: number;
	/** PRNG seed (default 1); every setWebhookChaos re-seeds. */
	seed?: number;
}

export interface WebhookCounters {
	/** Deliveries decided (one per event and subscribed webhook). */
	deliveries: number;
	/** Copies that got a 2xx answer (a duplicated delivery can count twice). */
	delivered: number;
	/** Deliveries chaos dropped (never sent). */
	dropped: number;
	/** Extra copies chaos added. */
	duplicated: number;
	/** Copies sent after a copy of a later event to the same webhook had been sent. */
	reordered: number;
	/** Attempts after the first (retries and reconnects). */
	retried: number;
	/** Copies that ended without a 2xx answer (after all attempts, or aborted). */
	failed: number;
	/** Copies not finished yet (delayed, held, queued, in flight or waiting to retry). */
	pending: number;
	/** HTTP attempts made. */
	attempts: number;
}

export const DEFAULT_REORDER_HOLD_MS = 200;
export const DEFAULT_BACKOFF_MS = 500;
export const DEFAULT_MAX_BACKOFF_MS = 30_000;
const MAX_CONCURRENCY = 64;
const MAX_ATTEMPTS = 20;

export function emptyCounters(): WebhookCounters {
	return {
		deliveries: 0,
		delivered: 0,
		dropped: 0,
		duplicated: 0,
		reordered: 0,
		retried: 0,
		failed: 0,
		pending: 0,
		attempts: 0,
	};
}

/** Seeded decisions for one chaos configuration. */
export class ChaosDice {
	/** Separate streams: shuffles happen at timing-dependent moments and must not shift drop/duplicate draws. */
	private readonly decisions: Random;
	private readonly shuffles: Random;

	constructor(readonly options: WebhookChaosOptions) {
		const seed = options.seed ?? 1;
		this.decisions = createRandom(seed);
		this.shuffles = createRandom(seed ^ 0x5bd1e995);
	}

	/** Number of copies to send: 0 (dropped), 1, or 2 (duplicated). Always two draws, so decisions stay aligned. */
	copies(): 0 | 1 | 2 {
		const drop = this.decisions();
		const duplicate = this.decisions();
		if (drop < (this.options.dropRate ?? 0)) return 0;
		return duplicate < (this.options.duplicateRate ?? 0) ? 2 : 1;
	}

	delayMs(): number {
		return drawMilliseconds(this.options.delayMs, this.decisions);
	}

	/** Fisher-Yates in place. */
	shuffle<T>(items: T[]): T[] {
		for (let i = items.length - 1; i > 0; i--) {
			const j = Math.floor(this.shuffles() * (i + 1));
			[items[i], items[j]] = [items[j], items[i]];
		}
		return items;
	}

	backoffMs(retry: number): number {
		const base = this.options.backoffMs ?? DEFAULT_BACKOFF_MS;
		return Math.min(base * 2 ** (retry - 1), this.options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS);
	}
}

/** Checks and copies chaos settings; throws RangeError naming the bad setting. `{}` turns chaos off. */
export function validateWebhookChaos(input: unknown): WebhookChaosOptions {
	if (typeof input !== 'object' || input === null || Array.isArray(input))
		throw new RangeError('webhook chaos must be an object');
	const {
		dropRate,
		duplicateRate,
		delayMs,
		reorderWindow,
		reorderHoldMs,
		concurrency,
		maxAttempts,
		backoffMs,
		maxBackoffMs,
		seed,
		...unknown
	} = input as Record<string, unknown>;
	const unknownKeys = Object.keys(unknown);
	if (unknownKeys.length > 0) {
		throw new RangeError(
			`unknown webhook chaos option(s): ${unknownKeys.join(', ')}; known: dropRate, duplicateRate, delayMs, reorderWindow, reorderHoldMs, concurrency, maxAttempts, backoffMs, maxBackoffMs, seed`,
		);
	}
	const options: WebhookChaosOptions = {};
	if (dropRate !== undefined) options.dropRate = probability('dropRate', dropRate);
	if (duplicateRate !== undefined)
		options.duplicateRate = probability('duplicateRate', duplicateRate);
	if (delayMs !== undefined) options.delayMs = milliseconds('delayMs', delayMs);
	if (reorderWindow !== undefined)
		options.reorderWindow = integerIn('reorderWindow', reorderWindow, 1, 10_000);
	if (reorderHoldMs !== undefined)
		options.reorderHoldMs = integerIn('reorderHoldMs', reorderHoldMs, 0, 600_000);
	if (concurrency !== undefined)
		options.concurrency = integerIn('concurrency', concurrency, 1, MAX_CONCURRENCY);
	if (maxAttempts !== undefined)
		options.maxAttempts = integerIn('maxAttempts', maxAttempts, 1, MAX_ATTEMPTS);
	if (backoffMs !== undefined) options.backoffMs = integerIn('backoffMs', backoffMs, 0, 600_000);
	if (maxBackoffMs !== undefined)
		options.maxBackoffMs = integerIn('maxBackoffMs', maxBackoffMs, 0, 600_000);
	if (seed !== undefined) options.seed = seedSetting(seed);
	return options;
}

function integerIn(name: string, value: unknown, min: number, max: number): number {
	if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max)
		throw new RangeError(`${name} must be an integer from ${min} to ${max}`);
	return value as number;
}
