/**
 * When to try a request again, and how long to wait first. Pure, so the rules can be tested
 * without a server: 429 and 502/503/504 and dropped connections are transient; a POST is repeated
 * only when the service said it did not process it: 429, or 503 with Retry-After, or when it never
 * reached the service (connection refused). A 503 without Retry-After may come from a gateway
 * that gave up waiting while the service processed the request, like a lost connection or
 * 502/504, where the record may already exist: the create's recovery finds out before repeating it.
 */
export interface RetryPolicy {
	/** Attempts for dropped connections and gateway errors (502/504). */
	maxAttempts: number;
	/**
	 * Attempts for 429/503, which say the request was not processed: safe to repeat, so more of
	 * them (still within budgetMs). At a 30% fault rate, 5 attempts fail a 500-item batch about
	 * 70% of the time (0.3⁵ × 500); 12 make that negligible.
	 */
	maxAttemptsNotProcessed: number;
	/** Total time the waits of one request may take. */
	budgetMs: number;
	baseDelayMs: number;
	maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxAttempts: 5,
	maxAttemptsNotProcessed: 12,
	budgetMs: 60_000,
	baseDelayMs: 500,
	maxDelayMs: 20_000,
};

const TRANSIENT_STATUSES = [429, 502, 503, 504];
const NOT_PROCESSED_STATUSES = [429, 503];
const CONNECTION_ERRORS = ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'EAI_AGAIN', 'ESOCKETTIMEDOUT'];
/** The request never left this machine or never reached the service: nothing can have been processed. */
export const NEVER_SENT_CODES = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'];

/** What went wrong with one attempt: an HTTP status, or a connection error code. */
export type AttemptFailure = { status: number; retryAfter?: boolean } | { connectionError: string };

export function isRetryable(method: string, failure: AttemptFailure): boolean {
	const idempotent = method.toUpperCase() !== 'POST';
	if ('status' in failure) {
		if (idempotent) return TRANSIENT_STATUSES.includes(failure.status);
		return failure.status === 429 || (failure.status === 503 && failure.retryAfter === true);
	}
	return CONNECTION_ERRORS.includes(failure.connectionError) && (idempotent || NEVER_SENT_CODES.includes(failure.connectionError));
}

/**
 * A POST that failed this way may have been processed by the service: a gateway's 502/504 or
 * 503 without Retry-After, or a connection lost after the request went out (not one refused).
 */
export function mayHaveBeenProcessed(method: string, failure: AttemptFailure): boolean {
	if (method.toUpperCase() !== 'POST' || isRetryable(method, failure)) return false;
	if ('status' in failure) return failure.status >= 502 && failure.status <= 504;
	return !NEVER_SENT_CODES.includes(failure.connectionError);
}

/** How many attempts a request gets in all when its last attempt failed this way. */
export function maxAttemptsFor(failure: AttemptFailure, policy: RetryPolicy): number {
	return 'status' in failure && NOT_PROCESSED_STATUSES.includes(failure.status) ? policy.maxAttemptsNotProcessed : policy.maxAttempts;
}

function headerText(value: unknown): string | undefined {
	const text = Array.isArray(value) ? (value[0] as unknown) : value;
	return typeof text === 'string' || typeof text === 'number' ? String(text).trim() : undefined;
}

/**
 * `Retry-After` as seconds or an HTTP date, in milliseconds from now; undefined if absent or
 * unreadable. A date is read against the answer's `Date` header (`serviceDate`: the service's
 * clock, which may differ from this machine's by seconds or minutes) when there is one. Without
 * it, a date further away than the retry budget is more likely a difference between the clocks
 * than a wait the service meant: it counts as the budget's limit, so each request waits that long
 * once and tries again instead of every item failing at once.
 */
export function parseRetryAfter(value: unknown, nowMs: number, serviceDate?: unknown, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number | undefined {
	const text = headerText(value);
	if (text === undefined) return undefined;
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	const serviceNow = Date.parse(headerText(serviceDate) ?? '');
	if (!Number.isNaN(serviceNow)) return Math.max(0, date - serviceNow);
	return Math.min(Math.max(0, date - nowMs), policy.budgetMs);
}

/**
 * Exponential backoff with full jitter; the service's `Retry-After` when it asks for longer. Never
 * shorter than the backoff: a "Retry-After: 0" (or a date already past) would otherwise spend all
 * attempts within milliseconds against a service that is still refusing.
 */
export function retryDelayMs(
	attempt: number,
	retryAfterMs: number | undefined,
	policy: RetryPolicy,
	random: () => number = Math.random,
): number {
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
	const backoff = Math.round(ceiling / 2 + (random() * ceiling) / 2);
	return Math.max(backoff, retryAfterMs ?? 0);
}
