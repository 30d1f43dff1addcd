import { API, errorOf, signForTest, TestClock } from './testClient';
import { useSandboxClient } from './useSandboxClient';

describe('sandbox authentication (docs/api.md#signing)', () => {
	const clock = new TestClock();
	const { sandbox, client } = useSandboxClient({ seed: 3, now: clock.now });
	const nowSeconds = (): number => Math.floor(clock.ms / 1000);

	// Signed GETs and POSTs pass in every package test; an unknown key, a milliseconds timestamp and a skew of 10
	// minutes as the node meets them: errorMessages.test.tsx and SupportTicketApi.credentials.test.tsx.
	it.each([
		[['x-api-key'], 'x-api-key'],
		[['x-api-timestamp'], 'x-api-timestamp'],
		[['x-api-signature'], 'x-api-signature'],
		[
			['x-api-key', 'x-api-timestamp', 'x-api-signature'],
			'x-api-key, x-api-timestamp, x-api-signature',
		],
	])('answers 401 missing_headers naming %j', async (removed, named) => {
		const headers = Object.fromEntries(removed.map((name) => [name, undefined]));
		const response = await client.get('/tickets', { headers });
		expect(response.status).toBe(401);
		const error = errorOf(response);
		expect(error.code).toBe('missing_headers');
		expect(error.message).toContain(named);
		expect(error.details).toEqual({ missing: removed });
		// An empty header counts as missing.
		expect(errorOf(await client.get('/tickets', { headers: { [removed[0]]: '' } })).code).toBe(
			'missing_headers',
		);
	});

	it.each(['abc', '1.5', '-5', '+1700000000', '1700000000.0', '17 00', '1e9', '0x10'])(
		'answers 401 invalid_timestamp for %j',
		async (timestamp) => {
			const response = await client.get('/tickets', { timestamp });
			expect(response.status).toBe(401);
			expect(errorOf(response).code).toBe('invalid_timestamp');
		},
	);

	it('accepts a skew of exactly 300 seconds either way on the injected clock, and answers 401 timestamp_skew beyond, giving the skew', async () => {
		expect((await client.get('/tickets', { timestamp: String(nowSeconds() - 300) })).status).toBe(
			200,
		);
		expect((await client.get('/tickets', { timestamp: String(nowSeconds() + 300) })).status).toBe(
			200,
		);
		const behind = await client.get('/tickets', { timestamp: String(nowSeconds() - 301) });
		expect(behind.status).toBe(401);
		expect(errorOf(behind)).toMatchObject({
			code: 'timestamp_skew',
			details: { skew_seconds: 301, max_skew_seconds: 300 },
		});
		expect(errorOf(behind).message).toContain('301 seconds behind');
		const ahead = await client.get('/tickets', { timestamp: String(nowSeconds() + 1000) });
		expect(errorOf(ahead)).toMatchObject({
			code: 'timestamp_skew',
			details: { skew_seconds: -1000 },
		});
		expect(errorOf(ahead).message).toContain('1000 seconds ahead of');
		// The test clock is fixed in 2025, far from the wall clock.
		expect(
			errorOf(await client.get('/tickets', { timestamp: String(Math.floor(Date.now() / 1000)) }))
				.code,
		).toBe('timestamp_skew');
	});

	it('answers 401 invalid_signature for a wrong secret without leaking the secret', async () => {
		const response = await client.get('/tickets?per_page=1', { secret: 'wrong-secret' });
		expect(response.status).toBe(401);
		const error = errorOf(response);
		expect(error.code).toBe('invalid_signature');
		expect(response.text).not.toContain(sandbox.apiSecret);
		// The server shows the inputs it signed, so a client can diff its own.
		expect(error.details).toEqual({
			signed: {
				timestamp: String(nowSeconds()),
				method: 'GET',
				path: `${API}/tickets?per_page=1`,
				body_sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
			},
		});
	});

	it('rejects an upper-case hex signature (signing requires lowercase)', async () => {
		const timestamp = String(nowSeconds());
		const signature = signForTest(
			sandbox.apiSecret,
			timestamp,
			'GET',
			`${API}/tickets`,
			'',
		).toUpperCase();
		const response = await client.get('/tickets', {
			timestamp,
			headers: { 'x-api-signature': signature },
		});
		expect(errorOf(response).code).toBe('invalid_signature');
		expect(errorOf(response).message).toContain('lowercase');
	});

	it('signs the query string exactly as sent: a signature over another order, or without the query, is refused', async () => {
		const timestamp = String(nowSeconds());
		for (const signedPath of [`${API}/tickets?status=open&per_page=2`, `${API}/tickets`]) {
			const signature = signForTest(sandbox.apiSecret, timestamp, 'GET', signedPath, '');
			const response = await client.request('GET', `${API}/tickets?per_page=2&status=open`, {
				timestamp,
				headers: { 'x-api-signature': signature },
			});
			expect(errorOf(response).code).toBe('invalid_signature');
		}
	});

	it('rejects a body that differs from the signed bytes (e.g. pretty-printed after signing)', async () => {
		const compact = JSON.stringify({
			subject: 's',
			description: 'd',
			customer: { email: 'x@example.com' },
		});
		const timestamp = String(nowSeconds());
		const signature = signForTest(sandbox.apiSecret, timestamp, 'POST', `${API}/tickets`, compact);
		const before = sandbox.store.ticketCount;
		const response = await client.request('POST', `${API}/tickets`, {
			body: JSON.stringify(JSON.parse(compact), null, 2),
			timestamp,
			headers: { 'x-api-signature': signature, 'content-type': 'application/json' },
		});
		expect(errorOf(response).code).toBe('invalid_signature');
		expect(sandbox.store.ticketCount).toBe(before);
	});
});
