// Two versions of one record within one second carry the same updated_at on a service with whole-second timestamps. Sync 2
// and 3 of the Data Table edition replayed (dataTableExamples.tsx) on the test's clock, the orders of executions forced by a
// hook, no timing. In real n8n, with whatever order the machine gives: `npm run test:sync`.
import type { IDataObject } from 'n8n-workflow';

import { credentialsFor } from '../harness';
import { startSandbox, type Sandbox } from '../../sandbox';
import { compareCustomers, compareTickets, describeDifference } from '../e2e/sync/compareCopy';
import { DataTables, runExample, type RunContext } from './dataTableExamples';
import { load } from './postgresExamples';

const webhooks = load('sync-webhooks.json');
const reconcile = load('sync-reconcile.json');

/** The second both versions fall in; the last reconcile's watermark is that very second. */
const SECOND = Date.parse('2026-11-27T04:00:55.000Z');
const clock = { ms: SECOND };
let sandbox: Sandbox;
let tables: DataTables;
let context: RunContext;

beforeEach(async () => {
	clock.ms = SECOND + 100;
	sandbox = await startSandbox({
		timestampFormat: 'epoch-seconds',
		now: () => clock.ms,
		maxSkewSeconds: 10 ** 9,
	});
	tables = new DataTables();
	// What the last reconcile saved: the newest updated_at it read, as ISO.
	tables.insert('st_state', { key: 'reconcile_since', value: new Date(SECOND).toISOString() });
	context = { tables, credentials: { supportTicketApi: credentialsFor(sandbox) } };
});
afterEach(async () => sandbox.stop());

/** Sync 2's execution for one delivery (only `event` and the record's id matter to it). */
const deliver = (event: string, id: string, before?: RunContext['before']) =>
	runExample(
		webhooks,
		'On Any Change',
		[{ id: `evt_${event}_${id}`, event, created_at: Math.floor(clock.ms / 1000), data: { id } }],
		{ ...context, before },
	);

/** One run of Sync 3, by hand. */
const runReconcile = () => runExample(reconcile, 'Start Reconcile', [{}], context);

function differences(): string[] {
	const tickets = compareTickets(
		sandbox.store.listTickets(),
		tables.rows('st_tickets'),
		'epoch-seconds',
	);
	const customers = compareCustomers(
		sandbox.store.listCustomers(),
		tables.rows('st_customers'),
		'epoch-seconds',
	);
	return [tickets, customers]
		.filter((d) => d.missing.length + d.extra.length + d.stale.length > 0)
		.map((d, i) => describeDifference(['tickets', 'customers'][i], d));
}

const priorityInCopy = (id: string) =>
	tables
		.rows('st_tickets')
		.map((row) => [row.ticket_id, row.priority] as const)
		.filter(([ticket]) => ticket === id);

/** Hooks for a delivery's execution: as it is about to plan, once, the ticket is set to urgent at `atMs` and that update is delivered in full. */
function updateBeforePlanning(
	ticketId: string,
	atMs: number,
	afterUpdate: () => void = () => undefined,
) {
	let done = false;
	return {
		'Plan Ticket Writes': async () => {
			if (done) return;
			done = true;
			clock.ms = atMs;
			sandbox.store.updateTicket(ticketId, { priority: 'urgent' });
			await deliver('ticket.updated', ticketId);
			afterUpdate();
		},
	};
}

describe('sync examples (Data Tables): two versions within one second of a service with whole-second timestamps', () => {
	it('the older version written last (its execution found no row before the newer one was inserted): one reconcile, even with its watermark in that second, leaves the copy equal to the service', async () => {
		const ticket = sandbox.store.createTicket({
			subject: 'Printer',
			description: 'On fire',
			priority: 'normal',
			customer: { email: 'ana@example.com' },
		});
		// ticket.created: read (normal) and no row found; before it plans, the update in the same second and its whole execution.
		const created = await deliver(
			'ticket.created',
			ticket.id,
			updateBeforePlanning(ticket.id, SECOND + 600, () =>
				expect(priorityInCopy(ticket.id)).toEqual([[ticket.id, 'urgent']]),
			),
		);
		expect(created.output('Get Ticket')[0]).toMatchObject({
			priority: 'normal',
			updated_at: Math.floor(SECOND / 1000),
		});
		expect(sandbox.store.getTicket(ticket.id)).toMatchObject({ priority: 'urgent' });
		// Both versions say 1795752055: the insert's "updated_ms ≤ new" let the older one over the newer.
		expect(priorityInCopy(ticket.id)).toEqual([[ticket.id, 'normal']]);

		clock.ms = SECOND + 5_000;
		const first = await runReconcile();
		expect(first.output('Get Page of Changed Tickets')[0].data).toEqual([
			expect.objectContaining({ id: ticket.id, priority: 'urgent' }),
		]);
		expect(differences()).toEqual([]);
		// The watermark stays in that second (the newest updated_at read); a second reconcile reads it again and has nothing to write.
		expect(tables.rows('st_state')).toEqual([
			expect.objectContaining({ key: 'reconcile_since', value: new Date(SECOND).toISOString() }),
		]);
		const again = await runReconcile();
		expect(again.output('Get Page of Changed Tickets')[0].data).toEqual([
			expect.objectContaining({ id: ticket.id }),
		]);
		expect(again.output('Plan Ticket Writes').filter((d) => d.action !== 'summary')).toEqual([]);
	});

	it('the newer version read after the older one was stored: the webhook writes it at once', async () => {
		const ticket = sandbox.store.createTicket({
			subject: 'Printer',
			description: 'On fire',
			priority: 'normal',
			customer: { email: 'ana@example.com' },
		});
		await deliver('ticket.created', ticket.id);
		await deliver('customer.created', ticket.customer.id);
		clock.ms = SECOND + 600;
		sandbox.store.updateTicket(ticket.id, { priority: 'urgent' });
		await deliver('ticket.updated', ticket.id);
		expect(differences()).toEqual([]);
	});

	it("the newer version's delivery lost: one reconcile writes it, for a ticket and for a customer", async () => {
		const ticket = sandbox.store.createTicket({
			subject: 'Printer',
			description: 'On fire',
			priority: 'normal',
			customer: { email: 'ana@example.com' },
		});
		const customer = sandbox.store.createCustomer({ email: 'bo@example.com', name: 'Bo' });
		await deliver('ticket.created', ticket.id);
		await deliver('customer.created', customer.id);
		await deliver('customer.created', ticket.customer.id);
		clock.ms = SECOND + 900;
		sandbox.store.updateTicket(ticket.id, { priority: 'urgent' });
		sandbox.store.updateCustomer(customer.id, { name: 'Bo Renamed' });
		expect(differences()).not.toEqual([]);

		clock.ms = SECOND + 5_000;
		await runReconcile();
		expect(differences()).toEqual([]);
	});

	it('a strictly older version written last still never wins: a second row at most, which the reconcile merges', async () => {
		const ticket = sandbox.store.createTicket({
			subject: 'Printer',
			description: 'On fire',
			priority: 'normal',
			customer: { email: 'ana@example.com' },
		});
		await deliver('ticket.created', ticket.id, updateBeforePlanning(ticket.id, SECOND + 1_600));
		const rows = (): IDataObject[] =>
			tables
				.rows('st_tickets')
				.map((row) => ({ priority: row.priority, updated_at: row.updated_at }));
		expect(rows()).toEqual([
			{ priority: 'urgent', updated_at: String(Math.floor(SECOND / 1000) + 1) },
			{ priority: 'normal', updated_at: String(Math.floor(SECOND / 1000)) },
		]);
		clock.ms = SECOND + 5_000;
		await runReconcile();
		expect(differences()).toEqual([]);
	});
});
