import { API, errorOf } from './testClient';
import { useSandboxClient } from './useSandboxClient';

const newTicket = { subject: 'keyed', description: 'd', customer: { email: 'keyed@example.com' } };
const keyed = (key: string) => ({ body: newTicket, headers: { 'idempotency-key': key } });
const idOf = (json: unknown) => (json as { data: { id: string } }).data.id;

describe('Idempotency-Key, honoured (idempotencyKeys: true)', () => {
	const { sandbox, client } = useSandboxClient({ idempotencyKeys: true });

	it('a repeat with the key gets the first answer and creates nothing, also after a processed fault lost it', async () => {
		sandbox.setFaults({ next: ['processed-503'] });
		const lost = await client.request('POST', `${API}/tickets`, keyed('k-1'));
		expect(lost.status).toBe(503);
		const repeat = await client.request('POST', `${API}/tickets`, keyed('k-1'));
		expect(repeat.status).toBe(201);
		expect(
			sandbox.store
				.listTickets()
				.filter((t) => t.subject === 'keyed')
				.map((t) => t.id),
		).toEqual([idOf(repeat.json)]);
		expect(sandbox.log.map((e) => e.idempotencyKey)).toEqual(['k-1', 'k-1']);
	});

	it('the key with another body is refused 422 idempotency_key_reused', async () => {
		await client.request('POST', `${API}/tickets`, keyed('k-2'));
		const other = await client.request('POST', `${API}/tickets`, {
			...keyed('k-2'),
			body: { ...newTicket, subject: 'other' },
		});
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
