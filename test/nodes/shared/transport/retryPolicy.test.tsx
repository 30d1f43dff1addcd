import {
	DEFAULT_RETRY_POLICY,
	isRetryable,
	maxAttemptsFor,
	mayHaveBeenProcessed,
	parseRetryAfter,
	retryDelayMs,
} from '../../../../nodes/shared/transport/retryPolicy';

describe('retry policy', () => {
	it.each([
		['GET', { status: 429 }, true],
		['GET', { status: 502 }, true],
		['GET', { status: 503 }, true],
		['GET', { status: 504 }, true],
		['GET', { status: 500 }, false],
		['GET', { status: 401 }, false],
		['PATCH', { status: 502 }, true],
		['GET', { connectionError: 'ECONNRESET' }, true],
		['POST', { status: 429 }, true],
		['POST', { status: 503, retryAfter: true }, true],
		['POST', { status: 503 }, false],
		['PATCH', { status: 503 }, true],
		['POST', { status: 502 }, false],
		['POST', { status: 504 }, false],
		['POST', { connectionError: 'ECONNRESET' }, false],
		// Refused: the request never reached the service.
		['POST', { connectionError: 'ECONNREFUSED' }, true],
	] as const)('%s after %j → retry %s', (method, failure, expected) => {
		expect(isRetryable(method, failure)).toBe(expected);
	});

	it('gives "not processed" answers (429, 503) more attempts than lost connections and gateway errors', () => {
		expect(maxAttemptsFor({ status: 429 }, DEFAULT_RETRY_POLICY)).toBe(12);
		expect(maxAttemptsFor({ status: 503 }, DEFAULT_RETRY_POLICY)).toBe(12);
		expect(maxAttemptsFor({ status: 502 }, DEFAULT_RETRY_POLICY)).toBe(5);
		expect(maxAttemptsFor({ connectionError: 'ECONNRESET' }, DEFAULT_RETRY_POLICY)).toBe(5);
	});

	const gmt = (time: string) => `Sun, 22 Nov 2026 ${time} GMT`;
	const budget = DEFAULT_RETRY_POLICY.budgetMs;
	// An HTTP date is read against the answer's Date header (the service's clock, not this machine's); without one,
	// a date beyond the budget counts as the budget's limit (the clocks may differ). Seconds need no clock.
	it.each<[string | undefined, string | undefined, number | undefined]>([
		['3', undefined, 3000],
		['0', undefined, 0],
		[gmt('12:00:05'), undefined, 5000],
		[gmt('11:00:00'), undefined, 0],
		['soon', undefined, undefined],
		[undefined, undefined, undefined],
		[gmt('11:59:58'), gmt('11:59:57'), 1000],
		[gmt('12:01:31'), gmt('12:01:30'), 1000],
		[gmt('14:00:00'), gmt('12:00:00'), 2 * 3600_000],
		['2', gmt('10:00:00'), 2000],
		[gmt('12:01:31'), undefined, budget],
		[gmt('14:00:00'), 'not a date', budget],
		['7200', undefined, 7200_000],
	])('Retry-After %p, Date %p at 12:00:00 → %p ms', (retryAfter, date, expected) => {
		expect(parseRetryAfter(retryAfter, Date.parse('2026-11-22T12:00:00Z'), date)).toBe(expected);
	});

	it.each([
		[{ status: 500 }, true],
		[{ status: 502 }, true],
		[{ status: 503 }, true],
		[{ status: 504 }, true],
		[{ connectionError: 'ECONNRESET' }, true],
		[{ connectionError: 'ETIMEDOUT' }, true],
		[{ status: 503, retryAfter: true }, false],
		[{ status: 429 }, false],
		[{ status: 422 }, false],
		[{ connectionError: 'ECONNREFUSED' }, false],
	] as const)('a POST failed with %j may have been processed: %s', (failure, expected) => {
		expect(mayHaveBeenProcessed('POST', failure)).toBe(expected);
		expect(mayHaveBeenProcessed('GET', failure)).toBe(false);
	});

	// Exponential with jitter, capped; a Retry-After only lengthens the wait, never below that attempt's backoff.
	it.each([
		[1, undefined, 0, 250],
		[1, undefined, 1, 500],
		[3, undefined, 1, 2000],
		[20, undefined, 1, DEFAULT_RETRY_POLICY.maxDelayMs],
		[2, 7000, 1, 7000],
		[1, 0, 0, 250],
		[4, 0, 0, 2000],
		[4, 1000, 1, 4000],
	])(
		'attempt %i, Retry-After %p ms, jitter %i → waits %i ms',
		(attempt, retryAfter, jitter, ms) => {
			expect(retryDelayMs(attempt, retryAfter, DEFAULT_RETRY_POLICY, () => jitter)).toBe(ms);
		},
	);
});
