/**
 * When to try a request again, and how long to wait first; pure, so it is tested
 * without a server. A POST is repeated only when the service cannot have
 * processed it (docs/errors-and-troubleshooting.md).
 */
export interface RetryPolicy {
	/** Attempts for dropped connections and gateway errors (502/504). */
	maxAttempts: number;
	/**
	 * Attempts for 429/503 (not processed, safe to repeat): at a 30 % fault rate, 5
	 * would fail a 500-item batch 70 % of the time.
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
const CONNECTION_ERRORS = [
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EAI_AGAIN',
	'ESOCKETTIMEDOUT',
];
/**
 * The request never left this machine or never reached the service: nothing can have been
 * processed.
 */
export const NEVER_SENT_CODES = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'];

/** What went wrong with one attempt: an HTTP status, or a connection error code. */
export type AttemptFailure = { status: number; retryAfter?: boolean } | { connectionError: string };

export function isRetryable(method: string, failure: AttemptFailure): boolean {
	const idempotent = method.toUpperCase() !== 'POST';
	if ('status' in failure) {
		if (idempotent) return TRANSIENT_STATUSES.includes(failure.status);
		return failure.status === 429 || (failure.status === 503 && failure.retryAfter === true);
	}
	return (
		CONNECTION_ERRORS.includes(failure.connectionError) &&
		(idempotent || NEVER_SENT_CODES.includes(failure.connectionError))
	);
}

/**
 * A POST that failed this way may have been processed: a 500, a gateway's 502/504 or
 * bare 503, or a connection lost after sending.
 */
export function mayHaveBeenProcessed(method: string, failure: AttemptFailure): boolean {
	if (method.toUpperCase() !== 'POST' || isRetryable(method, failure)) return false;
	if ('status' in failure)
		return failure.status === 500 || (failure.status >= 502 && failure.status <= 504);
	return !NEVER_SENT_CODES.includes(failure.connectionError);
}

/** How many attempts a request gets in all when its last attempt failed this way. */
export function maxAttemptsFor(failure: AttemptFailure, policy: RetryPolicy): number {
	return 'status' in failure && NOT_PROCESSED_STATUSES.includes(failure.status)
		? policy.maxAttemptsNotProcessed
		: policy.maxAttempts;
}

/** A header's value as trimmed text (the first, if repeated); undefined when absent or blank. */
export function headerText(value: unknown): string | undefined {
	const text = Array.isArray(value) ? (value[0] as unknown) : value;
	const trimmed = typeof text === 'string' || typeof text === 'number' ? String(text).trim() : '';
	return trimmed === '' ? undefined : trimmed;
}

/**
 * `Retry-After` (seconds or an HTTP date) in milliseconds, read on the service's clock
 * (`Date` header). Without one, a date beyond the budget is more likely clock skew
 * than a meant wait: it counts as the budget.
 */
export function parseRetryAfter(
	value: unknown,
	nowMs: number,
	serviceDate?: unknown,
	policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): number | undefined {
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
 * Exponential backoff with jitter, or `Retry-After` when longer: never shorter, or
 * "Retry-After: 0" would spend every attempt at once.
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
