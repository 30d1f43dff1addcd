import { testCredential, useSandbox } from '../harness';
import { runNode } from '../nodes/supportTicketNode';

// The API Key goes out as a header: a character outside Latin-1 (an emoji, a pasted invisible
// one) would be sent cut short, so it is refused before any request. The API Secret is only the
// HMAC key (its UTF-8 bytes, signature.test.tsx) and is never sent: any Unicode text is valid.
const secrets = {
	'key-emoji': 'pässwörd-🔑',
	'key-cyrillic': 'пароль-секрет',
	'key-invisible': 'secret\u200b',
	'schlüssel-1': 'geheimnis-ß',
};
const { sandbox, credentials } = useSandbox({ seed: 33, keys: secrets });
const getMany = { resource: 'ticket', operation: 'getAll', limit: 1 };

it("an emoji in the API Key: the node's run and the credential Test say what to do, and nothing is sent", async () => {
	const apiKey = 'sandbox-key😀';
	const message =
		'The API Key in the credential has a character outside Latin-1 (U+1F600, character 12). ' +
		'Copy it again from the service.';
	const result = await runNode(getMany, { ...credentials, apiKey });
	expect(result.error?.message).toBe(message);
	const tested = await testCredential('supportTicketApi', { ...credentials, apiKey });
	expect(tested).toMatchObject({ status: 'Error', message });
	expect(sandbox.log).toEqual([]);
});

it.each(Object.entries(secrets))(
	"key %s, secret %s: the node's run and the credential Test are accepted by the service",
	async (apiKey, apiSecret) => {
		const unicode = { ...credentials, apiKey, apiSecret };
		expect((await runNode(getMany, unicode)).error).toBeUndefined();
		expect(await testCredential('supportTicketApi', unicode)).toMatchObject({ status: 'OK' });
		expect(sandbox.log.map((entry) => entry.status)).toEqual([200, 200]);
	},
);
