import { CHANGE_KINDS, type Sandbox, startSandbox, type Ticket } from '../../sandbox';
import { startRecordingReceiver, type RecordingReceiver } from './recordingReceiver';

/** The sync proofs (test/e2e/sync) count on this: each change of the driver is real and sent as one event. */
describe('sandbox change driver', () => {
	let sandbox: Sandbox;
	let receiver: RecordingReceiver;
	afterAll(async () => {
		await sandbox?.stop();
		await receiver?.close();
	});

	it('makes `count` changes of every kind; each is one webhook event carrying the changed resource', async () => {
		sandbox = await startSandbox({ seed: 50, now: () => Date.parse('2025-06-01T12:00:00.000Z') });
		receiver = await startRecordingReceiver();
		sandbox.addWebhook({ url: receiver.url });
		const before = {
			tickets: sandbox.store.ticketCount,
			customers: sandbox.store.customerCount,
			replies: sandbox.store.replyCount,
		};
		const summary = await sandbox.startDriver({ ratePerSecond: 1000, count: 300, seed: 2 })
			.finished;
		await sandbox.webhooksIdle();

		expect(summary).toMatchObject({ running: false, total: 300, errors: 0 });
		for (const kind of CHANGE_KINDS) expect(summary.byKind[kind]).toBeGreaterThan(10);
		expect(sandbox.store.ticketCount).toBe(before.tickets + summary.byKind['ticket.created']);
		expect(sandbox.store.customerCount).toBe(before.customers + summary.byKind['customer.created']);
		expect(sandbox.store.replyCount).toBe(before.replies + summary.byKind['reply.created']);
		const events = receiver.received.map((d) => d.payload);
		expect(events).toHaveLength(300);
		for (const kind of CHANGE_KINDS)
			expect(events.filter((e) => e.event === kind)).toHaveLength(summary.byKind[kind]);
		// The last ticket event of each ticket carries the ticket's own fields as they are now.
		const lastTicketEvent = new Map<string, Ticket>();
		for (const e of events)
			if (e.event.startsWith('ticket.'))
				lastTicketEvent.set((e.data as Ticket).id, e.data as Ticket);
		expect(lastTicketEvent.size).toBeGreaterThan(10);
		const own = (t: Ticket | undefined): unknown[] => [t?.id, t?.subject, t?.status, t?.priority];
		for (const [id, data] of lastTicketEvent)
			expect(own(data)).toEqual(own(sandbox.store.getTicket(id)));
	});
});
