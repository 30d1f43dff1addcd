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

	it('reads Retry-After as seconds or as an HTTP date', () => {
		const now = Date.parse('2026-11-22T12:00:00Z');
		expect(parseRetryAfter('3', now)).toBe(3000);
		expect(parseRetryAfter('0', now)).toBe(0);
		expect(parseRetryAfter('Sun, 22 Nov 2026 12:00:05 GMT', now)).toBe(5000);
		expect(parseRetryAfter('Sun, 22 Nov 2026 11:00:00 GMT', now)).toBe(0);
		expect(parseRetryAfter('soon', now)).toBeUndefined();
		expect(parseRetryAfter(undefined, now)).toBeUndefined();
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

	it("reads an HTTP date against the answer's Date header: the service's clock, not this machine's", () => {
		const now = Date.parse('2026-11-22T12:00:00Z');
		// The service's clock is 3 s behind: its date 1 s ahead of its clock is 1 s, not 0.
		expect(
			parseRetryAfter('Sun, 22 Nov 2026 11:59:58 GMT', now, 'Sun, 22 Nov 2026 11:59:57 GMT'),
		).toBe(1000);
		// 90 s ahead: 1 s, not 91 s.
		expect(
			parseRetryAfter('Sun, 22 Nov 2026 12:01:31 GMT', now, 'Sun, 22 Nov 2026 12:01:30 GMT'),
		).toBe(1000);
		// A far date on the service's own clock is a wait the service means.
		expect(
			parseRetryAfter('Sun, 22 Nov 2026 14:00:00 GMT', now, 'Sun, 22 Nov 2026 12:00:00 GMT'),
		).toBe(2 * 3600_000);
		// Seconds need no clock.
		expect(parseRetryAfter('2', now, 'Sun, 22 Nov 2026 10:00:00 GMT')).toBe(2000);
	});

	it("without a Date header, a date beyond the budget counts as the budget's limit (the clocks may differ)", () => {
		const now = Date.parse('2026-11-22T12:00:00Z');
		expect(parseRetryAfter('Sun, 22 Nov 2026 12:01:31 GMT', now)).toBe(
			DEFAULT_RETRY_POLICY.budgetMs,
		);
		expect(parseRetryAfter('Sun, 22 Nov 2026 14:00:00 GMT', now, 'not a date')).toBe(
			DEFAULT_RETRY_POLICY.budgetMs,
		);
		// In seconds it is what the service said.
		expect(parseRetryAfter('7200', now)).toBe(7200_000);
	});

	it('backs off exponentially with jitter, capped; a Retry-After only lengthens the wait', () => {
		const policy = DEFAULT_RETRY_POLICY;
		expect(retryDelayMs(1, undefined, policy, () => 0)).toBe(250);
		expect(retryDelayMs(1, undefined, policy, () => 1)).toBe(500);
		expect(retryDelayMs(3, undefined, policy, () => 1)).toBe(2000);
		expect(retryDelayMs(20, undefined, policy, () => 1)).toBe(policy.maxDelayMs);
		expect(retryDelayMs(2, 7000, policy, () => 1)).toBe(7000);
	});

	it('never waits less than the backoff for that attempt, whatever Retry-After says (0, or a date already past)', () => {
		const policy = DEFAULT_RETRY_POLICY;
		expect(retryDelayMs(1, 0, policy, () => 0)).toBe(250);
		expect(retryDelayMs(4, 0, policy, () => 0)).toBe(2000);
		expect(retryDelayMs(4, 1000, policy, () => 1)).toBe(4000);
	});
});
