import { createHash, createHmac } from 'node:crypto';

import { signRequestOptions } from '../../nodes/shared/signing/signRequestOptions';
import { testCredential, useSandbox } from '../harness';
import { runNode } from '../nodes/supportTicketNode';

// The API Key goes out as a header: a character outside Latin-1 (an emoji, a pasted invisible
// one) would be sent cut short, so it is refused before any request. The API Secret is only the
// HMAC key (its UTF-8 bytes) and is never sent: any Unicode text is valid.
const { sandbox, credentials } = useSandbox({ seed: 33 });
const getMany = { resource: 'ticket', operation: 'getAll', limit: 1 };
const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');

describe('an emoji in the API Key', () => {
	const apiKey = 'sandbox-key😀';
	const message =
		'The API Key in the credential has a character outside Latin-1 (U+1F600, character 12). ' +
		'Copy it again from the service.';

	it("the node's run fails with what to do, and nothing is sent", async () => {
		const result = await runNode(getMany, { ...credentials, apiKey });
		expect(result.error?.message).toBe(message);
		expect(sandbox.log).toEqual([]);
	});

	it('the credential Test reports it, and nothing is sent', async () => {
		const result = await testCredential('supportTicketApi', { ...credentials, apiKey });
		expect(result).toMatchObject({ status: 'Error', message });
		expect(sandbox.log).toEqual([]);
	});
});

describe('an API Secret in any Unicode text signs with its UTF-8 bytes', () => {
	const secrets = {
		'key-emoji': 'pässwörd-🔑',
		'key-cyrillic': 'пароль-секрет',
		'key-invisible': 'secret\u200b',
	};
	const fixture = useSandbox({ seed: 35, keys: secrets });

	// Independent of the package: node:crypto keyed by the secret's UTF-8 bytes.
	const utf8Hmac = (secret: string, message: string) =>
		createHmac('sha256', Buffer.from(secret, 'utf8')).update(message, 'utf8').digest('hex');

	it('a vector: "pässwörd-🔑", GET /api/v1/external/tickets?per_page=1 at 1750000000', () => {
		const message = `1750000000GET/api/v1/external/tickets?per_page=1${EMPTY_SHA256}`;
		// The same with Python's hmac and with `openssl dgst -sha256 -hmac`.
		const expected = '085c082408997f3866e7af4d3b8990816c2146744678b92bb8e1e819e52c2276';
		expect(utf8Hmac('pässwörd-🔑', message)).toBe(expected);
		const url = 'https://support.example.com/api/v1/external/tickets';
		const signed = signRequestOptions(
			{ method: 'GET', url, qs: { per_page: 1 } },
			{ apiKey: 'key-1', apiSecret: 'pässwörd-🔑' },
			1_750_000_000_000,
		);
		expect(signed.headers).toMatchObject({
			'x-api-timestamp': '1750000000',
			'x-api-signature': expected,
		});
	});

	it.each(Object.entries(secrets))(
		"%s: the node's run and the credential Test are accepted by the service",
		async (apiKey, apiSecret) => {
			const unicode = { ...fixture.credentials, apiKey, apiSecret };
			const result = await runNode(getMany, unicode);
			expect(result.error).toBeUndefined();
			const tested = await testCredential('supportTicketApi', unicode);
			expect(tested).toMatchObject({ status: 'OK' });
			expect(fixture.sandbox.log.map((entry) => entry.status)).toEqual([200, 200]);

			// The signature the node sent is the UTF-8-keyed HMAC of what it sent.
			const [{ output }] = result.credentialsHelper.authenticated;
			const headers = output.headers as Record<string, string>;
			const { pathname, search } = new URL(String(output.url));
			const message = `${headers['x-api-timestamp']}GET${pathname}${search}${EMPTY_SHA256}`;
			expect(headers['x-api-signature']).toBe(utf8Hmac(apiSecret, message));
		},
	);
});

describe('a key and secret within Latin-1 (ü, ß) still work', () => {
	const fixture = useSandbox({ seed: 34, apiKey: 'schlüssel-1', apiSecret: 'geheimnis-ß' });

	it('in the node and the credential Test', async () => {
		const result = await runNode(getMany, fixture.credentials);
		expect(result.error).toBeUndefined();
		expect(await testCredential('supportTicketApi', fixture.credentials)).toMatchObject({
			status: 'OK',
		});
		expect(fixture.sandbox.log.map((entry) => entry.status)).toEqual([200, 200]);
	});
});
