/**
 * Fault injection, switchable at run time.
 *
 * Faults are decided after authentication succeeds and before the request is processed: a
 * request answered 429 or 503 changed nothing (a POST created nothing), which is what lets
 * clients retry such POSTs safely. Latency applies to every /api request, before any check.
 * Draws come from a seeded PRNG so a given fault configuration replays identically. A rate limit
 * (token bucket on the monotonic clock) answers 429 with the whole seconds until the next token in
 * Retry-After, as a real service would; it is checked before the random draws.
 */
import { drawMilliseconds, isNonNegativeInteger, milliseconds, probability, seedSetting } from './chaosSettings';
import { ApiError } from './errors';
import { createRandom, type Random } from './prng';

export type InjectedFault = 429 | 503;

export interface FaultOptions {
	/** Probability (0..1) of answering 429 rate_limited. */
	rate429?: number;
	/** Probability (0..1) of answering 503 unavailable. */
	rate503?: number;
	/** Added delay before answering: fixed, or uniformly random in [min, max]. */
	latencyMs?: number | [number, number];
	/** Retry-After value: whole seconds (default 1) or an HTTP date that many seconds ahead. */
	retryAfter?: number | 'http-date';
	/** PRNG seed for fault and latency draws (default 1); re-seeded on every setFaults. */
	seed?: number;
	/** Faults forced on the next authenticated requests, in order, before any random draw. */
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

	/** A 429 when the rate limit is exhausted (the request takes a token otherwise); undefined without a limit. */
	throttle(): ApiError | undefined {
		const limit = this.options.rateLimit;
		if (!limit) return undefined;
		const now = this.clock();
		this.tokens = Math.min(burstOf(limit), this.tokens + ((now - this.tokensAt) * limit.perSecond) / 1000);
		this.tokensAt = now;
		if (this.tokens >= 1) {
			this.tokens -= 1;
			return undefined;
		}
		const seconds = String(Math.max(1, Math.ceil((1 - this.tokens) / limit.perSecond)));
		return new ApiError(
			429,
			'rate_limited',
			`Rate limit of ${limit.perSecond} requests per second exceeded; nothing was processed. Retry after ${seconds} seconds.`,
			{ retry_after: seconds },
			{ 'retry-after': seconds },
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

	/** The fault to inject for this request, if any. Consumes one draw when rates are set. */
	draw(): InjectedFault | undefined {
		const forced = this.queue.shift();
		if (forced !== undefined) return forced;
		const rate429 = this.options.rate429 ?? 0;
		const rate503 = this.options.rate503 ?? 0;
		if (rate429 === 0 && rate503 === 0) return undefined;
		const r = this.random();
		if (r < rate429) return 429;
		if (r < rate429 + rate503) return 503;
		return undefined;
	}

	error(fault: InjectedFault, nowMs: number): ApiError {
		const retryAfter = this.retryAfterHeader(nowMs);
		const headers = { 'retry-after': retryAfter };
		const details = { retry_after: retryAfter };
		const wait = /^\d+$/.test(retryAfter) ? `${retryAfter} seconds` : retryAfter;
		return fault === 429
			? new ApiError(429, 'rate_limited', `Too many requests; nothing was processed. Retry after ${wait}.`, details, headers)
			: new ApiError(503, 'unavailable', `The service is temporarily unavailable; nothing was processed. Retry after ${wait}.`, details, headers);
	}

	private retryAfterHeader(nowMs: number): string {
		const setting = this.options.retryAfter ?? DEFAULT_RETRY_AFTER_SECONDS;
		if (setting !== 'http-date') return String(setting);
		// An HTTP date has whole-second resolution: round up so it is at least 1 s ahead.
		return new Date((Math.ceil(nowMs / 1000) + DEFAULT_RETRY_AFTER_SECONDS) * 1000).toUTCString();
	}
}

export function validateFaultOptions(input: unknown): FaultOptions {
	if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new RangeError('faults must be an object');
	const { rate429, rate503, latencyMs, retryAfter, seed, next, rateLimit, ...unknown } = input as Record<string, unknown>;
	const unknownKeys = Object.keys(unknown);
	if (unknownKeys.length > 0) throw new RangeError(`unknown fault option(s): ${unknownKeys.join(', ')}`);
	const options: FaultOptions = {};
	if (rate429 !== undefined) options.rate429 = probability('rate429', rate429);
	if (rate503 !== undefined) options.rate503 = probability('rate503', rate503);
	if ((options.rate429 ?? 0) + (options.rate503 ?? 0) > 1) throw new RangeError('rate429 + rate503 must not exceed 1');
	if (latencyMs !== undefined) options.latencyMs = milliseconds('latencyMs', latencyMs);
	if (retryAfter !== undefined) {
		if (retryAfter !== 'http-date' && !isNonNegativeInteger(retryAfter)) throw new RangeError("retryAfter must be a non-negative integer (seconds) or 'http-date'");
		options.retryAfter = retryAfter;
	}
	if (seed !== undefined) options.seed = seedSetting(seed);
	if (next !== undefined) {
		if (!Array.isArray(next) || !next.every((f): f is InjectedFault => f === 429 || f === 503)) throw new RangeError('next must be an array of 429 and 503');
		options.next = [...next];
	}
	if (rateLimit !== undefined) options.rateLimit = validateRateLimit(rateLimit);
	return options;
}

function validateRateLimit(input: unknown): RateLimit {
	const { perSecond, burst, ...unknown } = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
	if (Object.keys(unknown).length > 0) throw new RangeError(`unknown rateLimit option(s): ${Object.keys(unknown).join(', ')}`);
	if (typeof perSecond !== 'number' || !(perSecond > 0) || !Number.isFinite(perSecond)) throw new RangeError('rateLimit.perSecond must be a positive number');
	if (burst !== undefined && !(Number.isSafeInteger(burst) && (burst as number) >= 1)) throw new RangeError('rateLimit.burst must be a whole number of at least 1');
	return burst === undefined ? { perSecond } : { perSecond, burst: burst as number };
}

function burstOf(limit: RateLimit): number {
	return limit.burst ?? Math.max(1, Math.round(limit.perSecond));
}
