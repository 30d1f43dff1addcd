import {
	DEFAULT_RETRY_POLICY,
	isRetryable,
	maxAttemptsFor,
	parseRetryAfter,
	retryDelayMs,
} from '../../../nodes/shared/retryPolicy';

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

	it('backs off exponentially with jitter, capped, unless the service said how long', () => {
		const policy = DEFAULT_RETRY_POLICY;
		expect(retryDelayMs(1, undefined, policy, () => 0)).toBe(250);
		expect(retryDelayMs(1, undefined, policy, () => 1)).toBe(500);
		expect(retryDelayMs(3, undefined, policy, () => 1)).toBe(2000);
		expect(retryDelayMs(20, undefined, policy, () => 1)).toBe(policy.maxDelayMs);
		expect(retryDelayMs(2, 7000, policy, () => 1)).toBe(7000);
	});
});
