import { API, errorOf } from './testClient';
import { useSandboxClient } from './useSandboxClient';

const newTicket = { subject: 'keyed', description: 'd', customer: { email: 'keyed@example.com' } };
const keyed = (key: string) => ({ body: newTicket, headers: { 'idempotency-key': key } });
const idOf = (json: unknown) => (json as { data: { id: string } }).data.id;

// A repeat with the key gets the first answer: createRecovery.identity.test.tsx (6.) through the node.
describe('Idempotency-Key, honoured (idempotencyKeys: true)', () => {
	const { client } = useSandboxClient({ idempotencyKeys: true });

	it('the key with another body is refused 422 idempotency_key_reused', async () => {
		await client.request('POST', `${API}/tickets`, keyed('k-2'));
		const other = await client.request('POST', `${API}/tickets`, { ...keyed('k-2'), body: { ...newTicket, subject: 'other' } });
		expect(other.status).toBe(422);
		expect(errorOf(other)).toMatchObject({ code: 'idempotency_key_reused' });
	});
});

describe('Idempotency-Key, ignored (the default)', () => {
	const { sandbox, client } = useSandboxClient();

	it('a repeat with the key creates again, as a service that does not know the header', async () => {
		const first = await client.request('POST', `${API}/tickets`, keyed('k-1'));
		const repeat = await client.request('POST', `${API}/tickets`, keyed('k-1'));
		expect(idOf(repeat.json)).not.toBe(idOf(first.json));
		expect(sandbox.store.ticketCount).toBe(2);
	});
});
