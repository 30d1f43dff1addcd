import { verifyWebhookSignature } from '../../../nodes/SupportTicketTrigger/verifyWebhookSignature';
import { hmacSha256Hex, sha256Hex, signedMessage } from '../../../sandbox/auth';

// Forgeries of the signed parts (body, path, method, timestamp, signature): signature.test.tsx, the one
// table; here what the webhook adds: headers as Node gives them, the raw body, the rotation's secrets.
const SECRET = 'sëcret with spaces "and quotes"';
const PREVIOUS = 'prévious 🔑 secret';
const PATH = '/webhook/abc/support-ticket?x=1';
const NOW_MS = 1_790_000_000_000;
const TS = String(NOW_MS / 1000);
const BODY = Buffer.from('{"id":"evt_1","event":"ticket.created","data":{"subject":"Grüße"}}');

// Signed with the sandbox's independent signer, so one bug cannot cancel itself out.
const sign = (secret = SECRET) =>
	hmacSha256Hex(secret, signedMessage(TS, 'POST', PATH, sha256Hex(BODY)));
const signedWith = (secret: string) => ({ 'x-api-timestamp': TS, 'x-api-signature': sign(secret) });

type Headers = Record<string, string | string[] | undefined>;

describe('verifyWebhookSignature', () => {
	it.each<[string, { headers?: Headers; rawBody?: Buffer; secrets?: string[] }, string | null]>([
		['signed over timestamp + POST + path?query + sha256(raw body)', {}, null],
		[
			'an upper-case hex signature',
			{ headers: { ...signedWith(SECRET), 'x-api-signature': sign().toUpperCase() } },
			null,
		],
		['rotation: signed with the current secret', { secrets: [SECRET, PREVIOUS] }, null],
		[
			'rotation: signed with the previous secret',
			{ secrets: [SECRET, PREVIOUS], headers: signedWith(PREVIOUS) },
			null,
		],
		[
			'the previous secret once no longer listed',
			{ headers: signedWith(PREVIOUS) },
			'invalid_signature',
		],
		[
			'a third secret during a rotation',
			{ secrets: [SECRET, PREVIOUS], headers: signedWith('other') },
			'invalid_signature',
		],
		['no secret at all (fails closed)', { secrets: [] }, 'invalid_signature'],
		['no raw body available', { rawBody: undefined }, 'invalid_signature'],
		['timestamp header missing', { headers: { 'x-api-signature': sign() } }, 'missing_headers'],
		['signature header missing', { headers: { 'x-api-timestamp': TS } }, 'missing_headers'],
		[
			'signature header repeated (list)',
			{ headers: { 'x-api-timestamp': TS, 'x-api-signature': [sign(), sign()] } },
			'missing_headers',
		],
		[
			'signature header repeated (joined by Node)',
			{ headers: { 'x-api-timestamp': TS, 'x-api-signature': `${sign()}, ${sign()}` } },
			'missing_headers',
		],
	])('%s → %s', (_name, given, reason) => {
		const result = verifyWebhookSignature(
			{
				headers: given.headers ?? signedWith(SECRET),
				rawBody: 'rawBody' in given ? given.rawBody : BODY,
				signedPath: PATH,
			},
			{ secrets: given.secrets ?? [SECRET], nowMs: NOW_MS, toleranceSeconds: 300 },
		);
		expect(result).toMatchObject(reason === null ? { valid: true } : { valid: false, reason });
		for (const secret of [SECRET, PREVIOUS]) expect(JSON.stringify(result)).not.toContain(secret);
	});
});
