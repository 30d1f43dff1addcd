/**
 * Fault injection, switchable at run time.
 *
 * Faults are decided after authentication succeeds and before the request is processed: a
 * request answered 429 or 503 changed nothing (a POST created nothing), which is what lets
 * clients retry such POSTs safely. Latency applies to every /api request, before any check.
 * Draws come from a seeded PRNG so a given fault configuration replays identically. A rate limit
 * (token bucket on the monotonic clock) answers 429 with the whole seconds until the next token in
 * Retry-After, as a real service would; it is checked before the random draws.
 *
 * Besides these refusals, a write can be processed and then answered as a gateway that gave up
 * waiting would (503 without Retry-After), or have its connection dropped without an answer: the
 * client cannot tell whether the record exists. A 503 without Retry-After can also be a refusal
 * (`rate503Bare`): from the client's side the two look the same.
 */
import {
	drawMilliseconds,
	isNonNegativeInteger,
	milliseconds,
	probability,
	seedSetting,
} from './chaosSettings';
import { ApiError } from './errors';
import { createRandom, type Random } from './prng';

/**
 * 429/503: refused with Retry-After, nothing processed. `503-bare`: refused without Retry-After,
 * nothing processed. `processed-503`: processed, then answered 503 without Retry-After.
 * `processed-drop`: processed, then the connection is dropped without an answer.
 */
export type InjectedFault = 429 | 503 | '503-bare' | 'processed-503' | 'processed-drop';
const FAULT_KINDS: readonly InjectedFault[] = [
	429,
	503,
	'503-bare',
	'processed-503',
	'processed-drop',
];

/** Faults that let the request be processed first: only the answer is lost. */
export function isProcessedFault(
	fault: InjectedFault | undefined,
): fault is 'processed-503' | 'processed-drop' {
	return fault === 'processed-503' || fault === 'processed-drop';
}

export interface FaultOptions {
	/** Probability (0..1) of answering 429 rate_limited. */
	rate429?: number;
	/** Probability (0..1) of answering 503 unavailable. */
	rate503?: number;
	/** Probability (0..1) of answering 503 without Retry-After, nothing processed. */
	rate503Bare?: number;
	/** Probability (0..1) that a POST or PATCH is processed, then answered 503 without Retry-After. */
	rateProcessed503?: number;
	/** Probability (0..1) that a POST or PATCH is processed, then its connection dropped without an answer. */
	rateProcessedDrop?: number;
	/** Added delay before answering: fixed, or uniformly random in [min, max]. */
	latencyMs?: number | [number, number];
	/** Retry-After value: whole seconds (default 1) or an HTTP date that many seconds ahead. */
	retryAfter?: number | 'http-date';
	/** PRNG seed for fault and latency draws (default 1); re-seeded on every setFaults. */
	seed?: number;
	/** Faults forced on the next authenticated requests (any method), in order, before any random draw. */
	next?: InjectedFault[];
	/**
	 * Token bucket: `perSecond` requests per second on average, bursts of up to `burst` (default:
	 * one second's worth). A request over the limit is answered 429 and processed nothing.
	 */
	rateLimit?: RateLimit;
}

export interface RateLimit {
	perSecond: number;
	burst?: number;
	/**
	 * Retry-After of a refusal: by default the whole seconds until the next token (at least 1);
	 * a number sends that many seconds whatever the wait (e.g. 0); 'http-date' the date of the
	 * next token on the service's clock, rounded up to a whole second, at least 1 s ahead.
	 */
	retryAfter?: number | 'http-date';
}

const DEFAULT_RETRY_AFTER_SECONDS = 1;

export class FaultInjector {
	private options: FaultOptions = {};
	private random: Random = createRandom(1);
	private queue: InjectedFault[] = [];
	private tokens = 0;
	private tokensAt = 0;

	/** `clock`: milliseconds on a monotonic clock (tests pass their own to step time). */
	constructor(private readonly clock: () => number = () => performance.now()) {}

	/** Replaces the whole configuration (`set({})` clears every fault); throws RangeError on bad values. */
	set(options: FaultOptions): void {
		const normalized = validateFaultOptions(options);
		this.options = normalized;
		this.queue = [...(normalized.next ?? [])];
		this.random = createRandom(normalized.seed ?? 1);
		this.tokens = normalized.rateLimit ? burstOf(normalized.rateLimit) : 0;
		this.tokensAt = this.clock();
	}

	/** A 429 when the rate limit is exhausted (the request takes a token otherwise); undefined without a limit. `nowMs`: the service's clock. */
	throttle(nowMs: number = Date.now()): ApiError | undefined {
		const limit = this.options.rateLimit;
		if (!limit) return undefined;
		const now = this.clock();
		this.tokens = Math.min(
			burstOf(limit),
			this.tokens + ((now - this.tokensAt) * limit.perSecond) / 1000,
		);
		this.tokensAt = now;
		if (this.tokens >= 1) {
			this.tokens -= 1;
			return undefined;
		}
		const waitSeconds = Math.max(1, Math.ceil((1 - this.tokens) / limit.perSecond));
		const retryAfter =
			limit.retryAfter === 'http-date'
				? new Date((Math.ceil(nowMs / 1000) + waitSeconds) * 1000).toUTCString()
				: String(limit.retryAfter ?? waitSeconds);
		const wait = /^\d+$/.test(retryAfter) ? `${retryAfter} seconds` : retryAfter;
		return new ApiError(
			429,
			'rate_limited',
			`Rate limit of ${limit.perSecond} requests per second exceeded; nothing was processed. Retry after ${wait}.`,
			{ retry_after: retryAfter },
			{ 'retry-after': retryAfter },
		);
	}

	/** Current settings; `next` lists the forced faults not yet consumed. */
	get(): FaultOptions {
		const settings: FaultOptions = { ...this.options };
		delete settings.next;
		return this.queue.length > 0 ? { ...settings, next: [...this.queue] } : settings;
	}

	latencyMs(): number {
		return drawMilliseconds(this.options.latencyMs, this.random);
	}

	/**
	 * The fault to inject for this request, if any. Consumes one draw when rates are set. The
	 * processed faults are drawn for writes only (a read processed and not answered is a refusal).
	 */
	draw(method = 'GET'): InjectedFault | undefined {
		const forced = this.queue.shift();
		if (forced !== undefined) return forced;
		const o = this.options;
		const write = method === 'POST' || method === 'PATCH';
		const rates: Array<[InjectedFault, number]> = [
			[429, o.rate429 ?? 0],
			[503, o.rate503 ?? 0],
			['503-bare', o.rate503Bare ?? 0],
			['processed-503', o.rateProcessed503 ?? 0],
			['processed-drop', o.rateProcessedDrop ?? 0],
		];
		if (rates.every(([, rate]) => rate === 0)) return undefined;
		let r = this.random();
		for (const [fault, rate] of rates) {
			if (r < rate) return isProcessedFault(fault) && !write ? undefined : fault;
			r -= rate;
		}
		return undefined;
	}

	/** The answer of a refusal (429, 503, 503-bare), or of a processed request answered 503 (no Retry-After). */
	error(fault: Exclude<InjectedFault, 'processed-drop'>, nowMs: number): ApiError {
		if (fault === '503-bare' || fault === 'processed-503') {
			// As a gateway answers when the service is busy or did not answer in time: it cannot say whether the request was processed.
			return new ApiError(503, 'unavailable', 'The service is temporarily unavailable.');
		}
		const retryAfter = this.retryAfterHeader(nowMs);
		const headers = { 'retry-after': retryAfter };
		const details = { retry_after: retryAfter };
		const wait = /^\d+$/.test(retryAfter) ? `${retryAfter} seconds` : retryAfter;
		return fault === 429
			? new ApiError(
					429,
					'rate_limited',
					`Too many requests; nothing was processed. Retry after ${wait}.`,
					details,
					headers,
				)
			: new ApiError(
					503,
					'unavailable',
					`The service is temporarily unavailable; nothing was processed. Retry after ${wait}.`,
					details,
					headers,
				);
	}

	private retryAfterHeader(nowMs: number): string {
		const setting = this.options.retryAfter ?? DEFAULT_RETRY_AFTER_SECONDS;
		if (setting !== 'http-date') return String(setting);
		// An HTTP date has whole-second resolution: round up so it is at least 1 s ahead.
		return new Date((Math.ceil(nowMs / 1000) + DEFAULT_RETRY_AFTER_SECONDS) * 1000).toUTCString();
	}
}

export function validateFaultOptions(input: unknown): FaultOptions {
	if (typeof input !== 'object' || input === null || Array.isArray(input))
		throw new RangeError('faults must be an object');
	const {
		rate429,
		rate503,
		rate503Bare,
		rateProcessed503,
		rateProcessedDrop,
		latencyMs,
		retryAfter,
		seed,
		next,
		rateLimit,
		...unknown
	} = input as Record<string, unknown>;
	const unknownKeys = Object.keys(unknown);
	if (unknownKeys.length > 0)
		throw new RangeError(`unknown fault option(s): ${unknownKeys.join(', ')}`);
	const options: FaultOptions = {};
	if (rate429 !== undefined) options.rate429 = probability('rate429', rate429);
	if (rate503 !== undefined) options.rate503 = probability('rate503', rate503);
	if (rate503Bare !== undefined) options.rate503Bare = probability('rate503Bare', rate503Bare);
	if (rateProcessed503 !== undefined)
		options.rateProcessed503 = probability('rateProcessed503', rateProcessed503);
	if (rateProcessedDrop !== undefined)
		options.rateProcessedDrop = probability('rateProcessedDrop', rateProcessedDrop);
	const total =
		(options.rate429 ?? 0) +
		(options.rate503 ?? 0) +
		(options.rate503Bare ?? 0) +
		(options.rateProcessed503 ?? 0) +
		(options.rateProcessedDrop ?? 0);
	// A little room for floating-point sums such as 0.1 + 0.2.
	if (total > 1 + 1e-9)
		throw new RangeError(
			'rate429 + rate503 + rate503Bare + rateProcessed503 + rateProcessedDrop must not exceed 1',
		);
	if (latencyMs !== undefined) options.latencyMs = milliseconds('latencyMs', latencyMs);
	if (retryAfter !== undefined) {
		if (retryAfter !== 'http-date' && !isNonNegativeInteger(retryAfter))
			throw new RangeError("retryAfter must be a non-negative integer (seconds) or 'http-date'");
		options.retryAfter = retryAfter;
	}
	if (seed !== undefined) options.seed = seedSetting(seed);
	if (next !== undefined) {
		if (
			!Array.isArray(next) ||
			!next.every((f): f is InjectedFault => FAULT_KINDS.includes(f as InjectedFault))
		)
			throw new RangeError(
				"next must be an array of 429, 503, '503-bare', 'processed-503' and 'processed-drop'",
			);
		options.next = [...next];
	}
	if (rateLimit !== undefined) options.rateLimit = validateRateLimit(rateLimit);
	return options;
}

function validateRateLimit(input: unknown): RateLimit {
	const { perSecond, burst, retryAfter, ...unknown } = (
		typeof input === 'object' && input !== null ? input : {}
	) as Record<string, unknown>;
	if (Object.keys(unknown).length > 0)
		throw new RangeError(`unknown rateLimit option(s): ${Object.keys(unknown).join(', ')}`);
	if (typeof perSecond !== 'number' || !(perSecond > 0) || !Number.isFinite(perSecond))
		throw new RangeError('rateLimit.perSecond must be a positive number');
	if (burst !== undefined && !(Number.isSafeInteger(burst) && (burst as number) >= 1))
		throw new RangeError('rateLimit.burst must be a whole number of at least 1');
	if (retryAfter !== undefined && retryAfter !== 'http-date' && !isNonNegativeInteger(retryAfter))
		throw new RangeError(
			"rateLimit.retryAfter must be a non-negative integer (seconds) or 'http-date'",
		);
	return {
		perSecond,
		...(burst === undefined ? {} : { burst: burst as number }),
		...(retryAfter === undefined ? {} : { retryAfter: retryAfter as number | 'http-date' }),
	};
}

function burstOf(limit: RateLimit): number {
	return limit.burst ?? Math.max(1, Math.round(limit.perSecond));
}
