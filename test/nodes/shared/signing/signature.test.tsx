import {
	buildStringToSign,
	computeSignature,
	sha256Hex,
	verifySignature,
	type SignedParts,
} from '../../../../nodes/shared/signing/signature';

// Expected values computed outside TypeScript (Python's hmac/hashlib, the first also with openssl), so a shared
// misunderstanding between the package and its tests cannot hide.
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

const vectors: Array<{
	name: string;
	secret: string;
	parts: SignedParts;
	bodyHash: string;
	signature: string;
}> = [
	{
		name: 'GET without a body (empty-string hash)',
		secret: 'sandbox-secret',
		parts: {
			timestamp: '1700000000',
			method: 'GET',
			pathWithQuery: '/api/v1/external/tickets?per_page=1',
			body: '',
		},
		bodyHash: EMPTY_SHA256,
		signature: 'a3b97987d6d261924bdf1d8c1b5bfa072c393a80a9d34c3974a24b968fa1bd87',
	},
	{
		name: 'POST with a Unicode body, quotes and backslashes',
		secret: 's3cr3t',
		parts: {
			timestamp: '1700000123',
			method: 'POST',
			pathWithQuery: '/api/v1/external/tickets',
			body: '{"subject":"Ünïcødé ✓ 日本語 🎫","description":"Body with \\"quotes\\" and \\\\ backslash","customer":{"email":"jürgen@example.com"}}',
		},
		bodyHash: '4e6ce1a41f417463960d6960fd895aa5169edb430277fd85a43c5b767e44bef9',
		signature: '9e263d3c776042e1ddcffbc60c39e5e5a2b2b0e499d28db7d60e48adc7df4ae2',
	},
	{
		name: 'query with space, +, /, = and non-ASCII (percent-encoded as sent)',
		secret: 'sandbox-secret',
		parts: {
			timestamp: '1700000456',
			method: 'GET',
			pathWithQuery: '/api/v1/external/tickets?q=a%20b%2Bc%2Fd%3De&name=J%C3%BCrgen&status=open',
			body: '',
		},
		bodyHash: EMPTY_SHA256,
		signature: '29f729d1aa16fe9dc0c6e1457d47d9a11aae1b5d3711aedcd3c56cbb2ca5c754',
	},
	{
		name: 'PATCH under a path prefix, secret with unicode, spaces and quotes',
		secret: 'clé secrète 🔑 "quoted" ',
		parts: {
			timestamp: '1700000789',
			method: 'PATCH',
			pathWithQuery: '/prefix/api/v1/external/customers/cus_7',
			body: '{"name":"Zoë"}',
		},
		bodyHash: '6bd0ee7972d372ec1f8a3cc44302e5449751305d73c2b69b5a79c62f88a4ca77',
		signature: 'df9cdc727fc428368b4ce36d7c6dabdfd4bced2287b14a6832f00d83de9d22b2',
	},
];

describe('signature', () => {
	it.each(vectors)(
		'$name: body hash, string to sign (no separators), signature; a one-character change fails',
		(vector) => {
			const { secret, parts, bodyHash, signature } = vector;
			expect(sha256Hex(parts.body)).toBe(bodyHash);
			expect(sha256Hex(Buffer.from(parts.body as string, 'utf8'))).toBe(bodyHash);
			expect(buildStringToSign(parts)).toBe(
				`${parts.timestamp}${parts.method}${parts.pathWithQuery}${bodyHash}`,
			);
			expect(computeSignature(secret, parts)).toBe(signature);
			expect(computeSignature(secret, { ...parts, method: parts.method.toLowerCase() })).toBe(
				signature,
			);
			const nowMs = Number(parts.timestamp) * 1000;
			expect(verifySignature({ ...parts, secret, signature, nowMs })).toEqual({ valid: true });
			const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
			expect(verifySignature({ ...parts, secret, signature: flipped, nowMs })).toMatchObject({
				valid: false,
				reason: 'invalid_signature',
			});
		},
	);

	describe('verifySignature failures', () => {
		const { secret, parts, signature } = vectors[1];
		const nowMs = Number(parts.timestamp) * 1000;
		const base = { ...parts, secret, signature, nowMs };

		it.each([
			['missing timestamp', { timestamp: undefined }, 'missing_headers'],
			['missing signature', { signature: undefined }, 'missing_headers'],
			['non-numeric timestamp', { timestamp: '17e8' }, 'invalid_timestamp'],
			['millisecond timestamp', { timestamp: '1700000123000' }, 'timestamp_in_milliseconds'],
			['timestamp 301 s old', { nowMs: nowMs + 301_000 }, 'timestamp_outside_window'],
			['timestamp 301 s ahead', { nowMs: nowMs - 301_000 }, 'timestamp_outside_window'],
			['tampered body', { body: parts.body + ' ' }, 'invalid_signature'],
			['other path', { pathWithQuery: '/api/v1/external/customers' }, 'invalid_signature'],
			['other method', { method: 'PATCH' }, 'invalid_signature'],
			['wrong secret', { secret: 'other' }, 'invalid_signature'],
			['truncated signature', { signature: signature.slice(0, 63) }, 'invalid_signature'],
			['not hex', { signature: 'z'.repeat(64) }, 'invalid_signature'],
			['the edge of a custom window', { nowMs: nowMs + 60_000, toleranceSeconds: 60 }, null],
			['past it', { nowMs: nowMs + 61_000, toleranceSeconds: 60 }, 'timestamp_outside_window'],
		] as const)('%s → %s', (_name, change, reason) => {
			expect(verifySignature({ ...base, ...change })).toEqual(
				reason === null ? { valid: true } : expect.objectContaining({ valid: false, reason }),
			);
		});

		it('never puts the expected signature or the secret in a message', () => {
			const result = verifySignature({ ...base, body: 'tampered' });
			expect(result.valid).toBe(false);
			const text = JSON.stringify(result);
			expect(text).not.toContain(computeSignature(secret, { ...parts, body: 'tampered' }));
			expect(text).not.toContain(secret);
		});
	});
});
