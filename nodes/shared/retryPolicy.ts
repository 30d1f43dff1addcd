/**
 * When to try a request again, and how long to wait first. Pure, so the rules can be tested
 * without a server: 429 and 502/503/504 and dropped connections are transient; a POST is repeated
 * only when the service said it did not process it: 429, or 503 with Retry-After. A 503 without
 * Retry-After may come from a gateway that gave up waiting while the service processed the
 * request, like a lost connection or 502/504, where the ticket may already exist.
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

/** What went wrong with one attempt: an HTTP status, or a connection error code. */
export type AttemptFailure = { status: number; retryAfter?: boolean } | { connectionError: string };

export function isRetryable(method: string, failure: AttemptFailure): boolean {
	const idempotent = method.toUpperCase() !== 'POST';
	if ('status' in failure) {
		if (idempotent) return TRANSIENT_STATUSES.includes(failure.status);
		return failure.status === 429 || (failure.status === 503 && failure.retryAfter === true);
	}
	return idempotent && CONNECTION_ERRORS.includes(failure.connectionError);
}

/** How many attempts a request gets in all when its last attempt failed this way. */
export function maxAttemptsFor(failure: AttemptFailure, policy: RetryPolicy): number {
	return 'status' in failure && NOT_PROCESSED_STATUSES.includes(failure.status) ? policy.maxAttemptsNotProcessed : policy.maxAttempts;
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from now; undefined if absent or unreadable. */
export function parseRetryAfter(value: unknown, nowMs: number): number | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' && typeof text !== 'number') return undefined;
	const trimmed = String(text).trim();
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
	const date = Date.parse(trimmed);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - nowMs);
}

/** Exponential backoff with full jitter, unless the service said how long to wait. */
export function retryDelayMs(
	attempt: number,
	retryAfterMs: number | undefined,
	policy: RetryPolicy,
	random: () => number = Math.random,
): number {
	if (retryAfterMs !== undefined) return retryAfterMs;
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
