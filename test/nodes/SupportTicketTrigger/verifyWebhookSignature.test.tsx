import { verifyWebhookSignature } from '../../../nodes/SupportTicketTrigger/verifyWebhookSignature';
import { hmacSha256Hex, sha256Hex, signedMessage } from '../../../sandbox/auth';

const SECRET = 'sëcret with spaces "and quotes"';
const PREVIOUS = 'prévious 🔑 secret';
const PATH = '/webhook/abc/support-ticket?x=1';
const NOW_MS = 1_790_000_000_000;
const TS = String(NOW_MS / 1000);
const BODY = Buffer.from(
	'{"id":"evt_1","event":"ticket.created","data":{"subject":"Grüße"}}',
	'utf8',
);

// Signed with the sandbox's independent signer, so one bug cannot cancel itself out.
const sign = (body: Buffer, path = PATH, ts = TS, secret = SECRET) =>
	hmacSha256Hex(secret, signedMessage(ts, 'POST', path, sha256Hex(body)));

function check(overrides: {
	headers?: Record<string, string | string[] | undefined>;
	rawBody?: Buffer;
	signedPath?: string;
	toleranceSeconds?: number;
	secrets?: string[];
}) {
	return verifyWebhookSignature(
		{
			headers: overrides.headers ?? { 'x-api-timestamp': TS, 'x-api-signature': sign(BODY) },
			rawBody: 'rawBody' in overrides ? overrides.rawBody : BODY,
			signedPath: overrides.signedPath ?? PATH,
		},
		{
			secrets: overrides.secrets ?? [SECRET],
			nowMs: NOW_MS,
			toleranceSeconds: overrides.toleranceSeconds ?? 300,
		},
	);
}

describe('verifyWebhookSignature', () => {
	it('accepts a delivery signed over timestamp + POST + path?query + sha256(raw body)', () => {
		expect(check({})).toEqual({ valid: true });
	});

	it('accepts an upper-case hex signature (hex is case-insensitive)', () => {
		expect(
			check({ headers: { 'x-api-timestamp': TS, 'x-api-signature': sign(BODY).toUpperCase() } }),
		).toEqual({ valid: true });
	});

	// Forgeries of the signed parts (body, path, timestamp, secret, signature): signature.test.tsx, the
	// one table; here what the webhook adds: headers as Node gives them and the raw body.
	it.each([
		['no raw body available', { rawBody: undefined }, 'invalid_signature'],
		['timestamp header missing', { headers: { 'x-api-signature': sign(BODY) } }, 'missing_headers'],
		['signature header missing', { headers: { 'x-api-timestamp': TS } }, 'missing_headers'],
		[
			'signature header repeated (list)',
			{ headers: { 'x-api-timestamp': TS, 'x-api-signature': [sign(BODY), sign(BODY)] } },
			'missing_headers',
		],
		[
			'signature header repeated (joined by Node)',
			{ headers: { 'x-api-timestamp': TS, 'x-api-signature': `${sign(BODY)}, ${sign(BODY)}` } },
			'missing_headers',
		],
		[
			'signed with another secret',
			{ headers: { 'x-api-timestamp': TS, 'x-api-signature': sign(BODY, PATH, TS, 'other') } },
			'invalid_signature',
		],
	])('rejects: %s', (_name, overrides, reason) => {
		const result = check(overrides as Parameters<typeof check>[0]);
		expect(result).toMatchObject({ valid: false, reason });
		if (!result.valid) expect(result.message).not.toContain(SECRET);
	});

	describe('during a rotation (the Webhook Secret, then the previous one)', () => {
		const rotating = [SECRET, PREVIOUS];
		const signedWith = (secret: string, ts = TS) => ({
			'x-api-timestamp': ts,
			'x-api-signature': sign(BODY, PATH, ts, secret),
		});
		const refused = (reason: string) => ({ valid: false, reason });

		it('accepts a delivery signed with either secret', () => {
			const deliveries = rotating.map((secret) => signedWith(secret));
			const results = deliveries.map((headers) => check({ secrets: rotating, headers }));
			expect(results).toEqual([{ valid: true }, { valid: true }]);
		});

		it('refuses the previous secret once it is no longer listed', () => {
			const result = check({ headers: signedWith(PREVIOUS) });
			expect(result).toMatchObject(refused('invalid_signature'));
		});

		it('still refuses a third secret, without naming either', () => {
			const result = check({ secrets: rotating, headers: signedWith('other') });
			expect(result).toMatchObject(refused('invalid_signature'));
			const message = result.valid ? '' : result.message;
			for (const secret of rotating) expect(message).not.toContain(secret);
		});

		it('no secret at all fails closed', () => {
			expect(check({ secrets: [] })).toMatchObject(refused('invalid_signature'));
		});
	});
});
