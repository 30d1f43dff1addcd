import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { joinUrl, signRequestOptions } from '../../../../nodes/shared/signing/signRequestOptions';
import { verifySignature } from '../../../../nodes/shared/signing/signature';

const credentials = { apiKey: 'key-1', apiSecret: 'secret-1' };
const NOW = 1_700_000_000_500;

function signedPathAndBody(options: IHttpRequestOptions) {
	const url = new URL(options.url);
	return {
		pathWithQuery: `${url.pathname}${url.search}`,
		body: (options.body as string | undefined) ?? '',
	};
}

/** Verifies the way a server would: from the URL and body that the options will send. */
function expectValidSignature(options: IHttpRequestOptions) {
	const headers = options.headers as IDataObject;
	const result = verifySignature({
		secret: credentials.apiSecret,
		timestamp: headers['x-api-timestamp'] as string,
		signature: headers['x-api-signature'] as string,
		method: options.method ?? 'GET',
		...signedPathAndBody(options),
		nowMs: NOW,
	});
	expect(result).toEqual({ valid: true });
}

function deepFreeze<T>(value: T): T {
	if (value && typeof value === 'object') {
		Object.values(value).forEach(deepFreeze);
		Object.freeze(value);
	}
	return value;
}

describe('joinUrl (axios combineURLs semantics)', () => {
	it.each([
		['https://h', '/api/x', 'https://h/api/x'],
		['https://h/', '/api/x', 'https://h/api/x'],
		['https://h/support/', 'api/x', 'https://h/support/api/x'],
		['https://h/support', '/api/x', 'https://h/support/api/x'],
		['https://ignored', 'http://127.0.0.1:1/a', 'http://127.0.0.1:1/a'],
		[undefined, 'http://127.0.0.1:1/a', 'http://127.0.0.1:1/a'],
	])('%s + %s', (base, url, expected) => {
		expect(joinUrl(base, url)).toBe(expected);
	});
});

// What is sent is what is signed: the URL and body bytes axios will send, the address in url alone.
// Legacy options (uri, a lower-case method, json): n8n's HTTP Request node through requestWithAuthentication.
const legacy = (options: IDataObject) => options as unknown as IHttpRequestOptions;

describe('signRequestOptions', () => {
	it.each<[string, IHttpRequestOptions, string, string | undefined]>([
		[
			'baseURL with a trailing slash and path prefix, qs moved into the URL',
			{ baseURL: 'https://h/support/', url: '/api/x', qs: { per_page: 1, status: 'on hold' } },
			'https://h/support/api/x?per_page=1&status=on%20hold',
			undefined,
		],
		[
			'qs after a query already in the URL',
			{ url: 'http://h/api?a=1', qs: { b: 'x y' } },
			'http://h/api?a=1&b=x%20y',
			undefined,
		],
		[
			'a path escaped, dot segments resolved, no fragment',
			{ url: 'http://h/api/v1/external/a/../tickets/ü#frag' },
			'http://h/api/v1/external/tickets/%C3%BC',
			undefined,
		],
		[
			'a JSON string body, trimmed',
			{ method: 'PATCH', url: 'http://h/x', body: '  {"a": 1}\n' },
			'http://h/x',
			'{"a": 1}',
		],
		[
			'a non-JSON string body, as a JSON string literal',
			{ method: 'POST', url: 'http://h/x', body: 'hello' },
			'http://h/x',
			'"hello"',
		],
		[
			'an empty body on GET: none, the empty string signed',
			{ method: 'GET', url: 'http://h/x', body: {} },
			'http://h/x',
			undefined,
		],
		[
			'legacy: the address in uri, qs, a lower-case method and an object body',
			legacy({
				uri: 'http://h/t?s=open',
				method: 'post',
				qs: { a: 'x y' },
				body: { s: 'S' },
				json: true,
			}),
			'http://h/t?s=open&a=x%20y',
			'{"s":"S"}',
		],
		[
			'legacy: a string body, as the bytes axios will send',
			legacy({ uri: 'http://h/x', method: 'PATCH', body: ' {"status":"open"} ', json: false }),
			'http://h/x',
			'{"status":"open"}',
		],
	])('%s', (_name, input, url, body) => {
		const signed = signRequestOptions(input, credentials, NOW);
		expect(signed.url).toBe(url);
		expect(signed.body).toBe(body);
		for (const moved of ['qs', 'baseURL', 'uri']) expect(signed).not.toHaveProperty(moved);
		expect(signed.method).toBe((input.method ?? 'GET').toUpperCase());
		expect(signed.headers).toMatchObject({ 'x-api-key': 'key-1', 'x-api-timestamp': '1700000000' });
		if (body === undefined) expect(signed.headers).not.toHaveProperty('Content-Type');
		expectValidSignature(signed);
	});

	it('stringifies an object body once, compactly, and sets Content-Type (replacing any casing)', () => {
		const headers = { 'content-type': 'text/plain', 'X-Other': 'kept' };
		const input = {
			method: 'POST' as const,
			url: 'http://h/api/v1/external/tickets',
			body: { subject: 'Ünïcødé ✓', n: 1 },
			headers,
		};
		const signed = signRequestOptions(input, credentials, NOW);
		expect(signed.body).toBe('{"subject":"Ünïcødé ✓","n":1}');
		expect(signed.headers).toEqual(
			expect.objectContaining({ 'Content-Type': 'application/json', 'X-Other': 'kept' }),
		);
		expect(signed.headers).not.toHaveProperty('content-type');
		expectValidSignature(signed);
	});

	it('never mutates its input', () => {
		const original: IHttpRequestOptions = {
			method: 'POST',
			baseURL: 'http://h',
			url: '/x',
			qs: { a: 1 },
			body: { b: 2 },
			headers: { 'x-api-signature': 'old' },
		};
		const input = deepFreeze<IHttpRequestOptions>(structuredClone(original));
		expect(() => signRequestOptions(input, credentials, NOW)).not.toThrow();
		expect(input).toEqual(original);
	});

	it('is idempotent on its own output (n8n re-authenticates after a 401)', () => {
		const once = signRequestOptions(
			{ method: 'POST', baseURL: 'http://h/p/', url: '/x', qs: { a: 'b c' }, body: { z: 'ü' } },
			credentials,
			NOW,
		);
		expect(signRequestOptions(once, credentials, NOW)).toEqual(once);

		const later = signRequestOptions(once, credentials, NOW + 5_000);
		expect({ ...later, headers: undefined }).toEqual({ ...once, headers: undefined });
		expect((later.headers as IDataObject)['x-api-timestamp']).toBe('1700000005');
		expect(Object.keys(later.headers as IDataObject).sort()).toEqual(
			Object.keys(once.headers as IDataObject).sort(),
		);
	});
});

describe('signRequestOptions: Base URL', () => {
	// Spaces around it: baseUrlShape.test.tsx, in the node and the credential Test.
	it.each([
		['support.example.com', 'support.example.com'],
		['', '(empty)'],
		['ftp://s.example.com', 'ftp://s.example.com'],
	])('explains what a Base URL looks like when given %j', (baseURL, shown) => {
		expect(() =>
			signRequestOptions({ baseURL, url: '/api/v1/external/tickets' }, credentials, NOW),
		).toThrow(
			new RegExp(
				`Base URL .*${shown.replace(/[.()]/g, '\\$&')}.* is not a web address\\. Enter the full address of the service, e\\.g\\. https://support\\.example\\.com`,
			),
		);
	});
});
