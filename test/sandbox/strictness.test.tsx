// The sandbox's own verifier and checks (written apart from the package's signer) refuse what the
// real service refuses: this strictness is what makes a passing node test against it mean something.
import { API, errorOf, signForTest, type TestRequestOptions } from './testClient';
import { useSandboxClient } from './useSandboxClient';

const SECRET = 'strict sëcret';
const NOW_MS = Date.parse('2025-06-01T12:00:00.000Z');
const NOW = String(NOW_MS / 1000);
const { sandbox, client } = useSandboxClient({ seed: 10, now: () => NOW_MS, apiSecret: SECRET });

const signed = (method: string, path: string, body = '', secret = SECRET) => ({
	timestamp: NOW,
	headers: { 'x-api-signature': signForTest(secret, NOW, method, `${API}${path}`, body) },
});
const ticket = JSON.stringify({ subject: 's', description: 'd', customer: { email: 'x@ex.com' } });
const json = { 'content-type': 'application/json' };

describe('the sandbox refuses (docs/api.md#signing, #paging)', () => {
	it.each<[string, string, string, TestRequestOptions, string]>([
		[
			'no signature header',
			'GET',
			'/tickets',
			{ headers: { 'x-api-signature': '' } },
			'missing_headers',
		],
		['a non-numeric timestamp', 'GET', '/tickets', { timestamp: '1e9' }, 'invalid_timestamp'],
		[
			'a timestamp 301 s behind',
			'GET',
			'/tickets',
			{ timestamp: String(+NOW - 301) },
			'timestamp_skew',
		],
		[
			'a timestamp 301 s ahead',
			'GET',
			'/tickets',
			{ timestamp: String(+NOW + 301) },
			'timestamp_skew',
		],
		[
			'a wrong secret',
			'GET',
			'/tickets?per_page=1',
			{ secret: 'wrong-secret' },
			'invalid_signature',
		],
		[
			'an upper-case hex signature',
			'GET',
			'/tickets',
			{
				headers: {
					'x-api-signature': signed('GET', '/tickets').headers['x-api-signature'].toUpperCase(),
				},
			},
			'invalid_signature',
		],
		[
			'a query signed in another order',
			'GET',
			'/tickets?per_page=2&status=open',
			signed('GET', '/tickets?status=open&per_page=2'),
			'invalid_signature',
		],
		[
			'a body other than the signed bytes',
			'POST',
			'/tickets',
			{
				timestamp: NOW,
				headers: { ...signed('POST', '/tickets', ticket).headers, ...json },
				body: JSON.stringify(JSON.parse(ticket), null, 2),
			},
			'invalid_signature',
		],
		[
			'a body without Content-Type JSON',
			'POST',
			'/tickets',
			{ body: ticket },
			'unsupported_media_type',
		],
		[
			'a query on a create',
			'POST',
			'/tickets?notify=true',
			{ body: JSON.parse(ticket) },
			'invalid_parameter',
		],
		['per_page 101', 'GET', '/tickets?per_page=101', {}, 'invalid_parameter'],
		['a forged cursor', 'GET', '/tickets?per_page=5&cursor=garbage', {}, 'invalid_cursor'],
	])('%s', async (_name, method, path, options, code) => {
		const before = sandbox.store.ticketCount;
		const response = await client.request(method, `${API}${path}`, options);
		expect(errorOf(response).code).toBe(code);
		expect(response.text).not.toContain(SECRET);
		expect(sandbox.store.ticketCount).toBe(before);
	});

	it('a cursor of another query (cursor_mismatch), and shows the inputs it signed', async () => {
		const first = (await client.get('/tickets?per_page=5')).json as {
			meta: { next_cursor: string };
		};
		const reused = await client.get(`/tickets?per_page=6&cursor=${first.meta.next_cursor}`);
		expect(errorOf(reused).code).toBe('cursor_mismatch');
		expect(errorOf(await client.get('/tickets', { secret: 'wrong' })).details).toEqual({
			signed: {
				timestamp: NOW,
				method: 'GET',
				path: `${API}/tickets`,
				body_sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
			},
		});
	});
});
