import type { IDataObject } from 'n8n-workflow';

import { runWorkflow, singleNodeWorkflow, testCredential, useSandbox } from '../harness';

// The credential through the engine against the sandbox: the Test button's request, and signed requests a node sends.
// Which bytes are signed for which request shape: signRequestOptions.test.tsx.
// The sandbox keeps the true time while a test skews the clock the credential reads.
const realNow = Date.now.bind(Date);
const { sandbox, credentials } = useSandbox({ seed: 30, now: realNow });
afterEach(() => jest.restoreAllMocks());

const request = (parameters: IDataObject) =>
	runWorkflow(singleNodeWorkflow('harness.signedRequest', parameters), {
		supportTicketApi: credentials,
	});

describe('credential test request', () => {
	it('succeeds with the right key and secret, asking for one ticket', async () => {
		await expect(testCredential('supportTicketApi', credentials)).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(sandbox.log.map((entry) => [entry.method, entry.path, entry.status])).toEqual([
			['GET', '/api/v1/external/tickets?per_page=1', 200],
		]);
	});

	it.each([
		['a wrong secret', { apiSecret: 'not-the-secret' }, 'invalid_signature'],
		['an unknown key', { apiKey: 'who-is-this' }, 'invalid_api_key'],
	])('fails with 401 for %s', async (_name, change, authError) => {
		const result = await testCredential('supportTicketApi', { ...credentials, ...change });
		expect(result).toMatchObject({ status: 'Error', httpCode: 401 });
		// n8n re-authenticates once after a 401 (preAuthentication hook), as its server does.
		expect(sandbox.log.map((entry) => entry.authError)).toEqual([authError, authError]);
	});
});

describe('signed requests through the n8n engine', () => {
	// GET, POST and PATCH: every node test against the sandbox. The legacy options n8n's HTTP Request node
	// sends: signRequestOptions.test.tsx, and in real n8n test/e2e/workflows/http-request-node.json.
	// The HTTP Request node's Form Urlencoded / Form-Data bodies: the client sends bytes the signature cannot cover.
	it.each(['form', 'formData'])(
		'refuses a legacy request whose body is in %s, saying the service takes JSON, and sends nothing',
		async (legacyBodyField) => {
			const run = await request({
				legacy: true,
				legacyBodyField,
				method: 'POST',
				url: '/api/v1/external/customers',
				body: JSON.stringify({ email: 'form@example.com' }),
			});
			expect(run.error?.message).toMatch(/JSON/);
			expect(sandbox.log).toEqual([]);
		},
	);

	// A wrong secret and a slow clock: the Test above and errorMessages.test.tsx.
	it.each([
		['a clock that counts milliseconds', (ms: number) => ms * 1000, 'timestamp_in_milliseconds'],
		['a clock 10 minutes fast', (ms: number) => ms + 600_000, 'timestamp_skew'],
	])('fails with 401 and a clear message for %s', async (_name, shift, authError) => {
		// Skews the clock the credential reads (Date.now); the sandbox keeps the true time.
		jest.spyOn(Date, 'now').mockImplementation(() => shift(realNow()));
		const run = await request({ method: 'GET', url: '/api/v1/external/tickets' });
		jest.restoreAllMocks();
		expect(run.error).toMatchObject({ httpCode: '401' });
		expect(
			sandbox.log.every((entry) => entry.status === 401 && entry.authError === authError),
		).toBe(true);
		expect(JSON.stringify(run.error)).not.toContain(sandbox.apiSecret);
	});
});
