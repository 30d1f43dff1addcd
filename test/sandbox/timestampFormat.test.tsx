import { startSandbox, type Ticket } from '../../sandbox';
import { type ItemBody, type ListBody, TestClient, TestClock } from './testClient';

describe('sandbox timestampFormat', () => {
	const clock = new TestClock(Date.parse('2025-06-01T12:00:00.250Z'));

	it.each([
		['iso', '2025-06-01T12:00:00.250Z'],
		['iso-without-zone', '2025-06-01T12:00:00.250'],
		['epoch-seconds', 1748779200],
		['epoch-milliseconds', 1748779200250],
	] as const)(
		'%s: created_at and updated_at of created, read and listed resources; store and webhooks keep ISO',
		async (format, expected) => {
			const sandbox = await startSandbox({ now: clock.now, timestampFormat: format });
			const client = new TestClient(sandbox.baseUrl, sandbox.apiKey, sandbox.apiSecret, clock.now);
			try {
				const created = (
					(
						await client.post('/tickets', {
							subject: 's',
							description: 'd',
							customer: { email: 'f@example.com' },
						})
					).json as ItemBody<Ticket>
				).data;
				expect([created.created_at, created.updated_at]).toEqual([expected, expected]);
				const listed = ((await client.get('/tickets')).json as ListBody<Ticket>).data[0];
				expect([listed.created_at, listed.updated_at, listed.id]).toEqual([
					expected,
					expected,
					created.id,
				]);
				const customer = (
					(await client.get(`/customers/${created.customer.id}`)).json as ItemBody<Ticket>
				).data;
				expect(customer.created_at).toEqual(expected);
				expect(sandbox.store.getTicket(created.id)?.created_at).toBe('2025-06-01T12:00:00.250Z');
				expect((await client.get('/tickets/tkt_99')).status).toBe(404);
			} finally {
				client.close();
				await sandbox.stop();
			}
		},
	);
});
