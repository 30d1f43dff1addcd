import { type Sandbox, startSandbox, type Ticket } from '../../sandbox';
import { type ItemBody, signForTest, TestClient, TestClock } from './testClient';
import { startRecordingReceiver, type RecordingReceiver } from './recordingReceiver';

describe('sandbox webhooks', () => {
	const clock = new TestClock();
	let sandbox: Sandbox;
	let client: TestClient;
	let receiver: RecordingReceiver;

	beforeEach(async () => {
		sandbox = await startSandbox({ now: clock.now });
		client = new TestClient(sandbox.baseUrl, sandbox.apiKey, sandbox.apiSecret, clock.now);
		receiver = await startRecordingReceiver();
	});

	afterEach(async () => {
		client.close();
		await sandbox.stop();
		await receiver.close();
	});

	it('delivers customer.created and ticket.created for a new ticket, signed like a request', async () => {
		sandbox.addWebhook({ url: `${receiver.url}/hooks/support?token=a%20b` });
		const created = (
			(
				await client.post('/tickets', {
					subject: 's',
					description: 'd',
					customer: { email: 'new@example.com' },
				})
			).json as ItemBody<Ticket>
		).data;
		await sandbox.webhooksIdle();

		expect(receiver.received.map((r) => r.payload.event)).toEqual([
			'customer.created',
			'ticket.created',
		]);
		const delivery = receiver.received[1];
		expect(delivery.path).toBe('/hooks/support?token=a%20b');
		expect(delivery.payload).toEqual({
			id: expect.stringMatching(/^evt_\d+$/),
			event: 'ticket.created',
			created_at: new Date(clock.ms).toISOString(),
			data: created,
		});
		expect(delivery.body).toBe(JSON.stringify(delivery.payload)); // compact JSON
		const timestamp = String(delivery.headers['x-api-timestamp']);
		expect(timestamp).toBe(String(Math.floor(clock.ms / 1000)));
		expect(delivery.headers).toMatchObject({
			'content-type': 'application/json',
			'x-api-key': sandbox.apiKey,
			'x-event-id': delivery.payload.id,
			'x-api-signature': signForTest(
				sandbox.apiSecret,
				timestamp,
				'POST',
				delivery.path,
				delivery.body,
			),
		});
		expect(sandbox.deliveries.map((d) => [d.event, d.status, d.attempts, d.done])).toEqual([
			['customer.created', 200, 1, true],
			['ticket.created', 200, 1, true],
		]);
	});

	// Event order, the events filter, a webhook secret and custom events, as the trigger receives them: SupportTicketTrigger.test.tsx.
	it('records a receiver error status without retrying, and retries a connection error once', async () => {
		const failing = await startRecordingReceiver(500);
		const gone = await startRecordingReceiver();
		await gone.close();
		try {
			sandbox.addWebhook({ url: failing.url });
			sandbox.addWebhook({ url: gone.url });
			sandbox.emit('ticket.created', {});
			await sandbox.webhooksIdle();
			expect(sandbox.deliveries[0]).toMatchObject({ status: 500, attempts: 1, done: true });
			expect(failing.received).toHaveLength(1);
			expect(sandbox.deliveries[1]).toMatchObject({
				attempts: 2,
				done: true,
				error: expect.stringContaining('ECONNREFUSED'),
			});
			expect(sandbox.deliveries[1].status).toBeUndefined();
		} finally {
			await failing.close();
		}
	});
});
