import { testCredential, useSandbox } from '../harness';
import { runNode } from '../nodes/supportTicketNode';

// A key or secret with a character outside Latin-1 (an emoji, a pasted invisible one) would be sent cut short, or never
// match: refused before any request.
const { sandbox, credentials } = useSandbox({ seed: 33 });

const cases = [
	['an emoji in the API Key', { apiKey: 'sandbox-key😀' }, 'The API Key in the credential has a character outside Latin-1 (U+1F600, character 12). Copy it again from the service.'],
	['an invisible character in the API Secret', { apiSecret: 'secret\u200b' }, 'The API Secret in the credential has a character outside Latin-1 (U+200B, character 7). Copy it again from the service.'],
] as const;

describe.each(cases)('%s', (_name, change, message) => {
	it('the node\'s run fails with what to do, and nothing is sent', async () => {
		const result = await runNode({ resource: 'ticket', operation: 'getAll', limit: 1 }, { ...credentials, ...change });
		expect(result.error?.message).toBe(message);
		expect(sandbox.log).toEqual([]);
	});

	it('the credential Test reports it, and nothing is sent', async () => {
		const result = await testCredential('supportTicketApi', { ...credentials, ...change });
		expect(result).toMatchObject({ status: 'Error', message });
		expect(sandbox.log).toEqual([]);
	});
});

describe('a key and secret within Latin-1 (ü, ß) still work', () => {
	const fixture = useSandbox({ seed: 34, apiKey: 'schlüssel-1', apiSecret: 'geheimnis-ß' });

	it('in the node and the credential Test', async () => {
		const result = await runNode({ resource: 'ticket', operation: 'getAll', limit: 1 }, fixture.credentials);
		expect(result.error).toBeUndefined();
		expect(await testCredential('supportTicketApi', fixture.credentials)).toMatchObject({ status: 'OK' });
		expect(fixture.sandbox.log.map((entry) => entry.status)).toEqual([200, 200]);
	});
});
