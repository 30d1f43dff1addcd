// The Data Table sync examples (Sync 1, 2 and 3; the two imports that write into the same tables): their rules read from
// their JSON, and Sync 2 and 3 replayed (dataTableExamples.tsx) on the test's clock against a service with whole-second
// timestamps, the order of executions forced by a hook. In real n8n, in whatever order the machine gives: `npm run
// test:sync` (test/e2e/sync/); the plans the proof cannot force: `npm run test:e2e` (planCases.tsx).
import type { IDataObject } from 'n8n-workflow';

import { credentialsFor } from '../harness';
import { startSandbox, type Sandbox } from '../../sandbox';
import { compareWithService, copyEqual, mustEqual } from '../e2e/sync/compareCopy';
import type { CopyStore } from '../e2e/sync/syncTables';
import { DataTables, runExample, type RunContext } from './dataTableExamples';
import { load, named } from './postgresExamples';

type Json = Record<string, unknown>;
const PLANNED = ['sync-initial-import.json', 'sync-webhooks.json', 'sync-reconcile.json'];
const webhooks = load('sync-webhooks.json');
const reconcile = load('sync-reconcile.json');
const conditionsOf = (node: { parameters: IDataObject }) =>
	(node.parameters.filters as { conditions: Json[] }).conditions;

describe('the Data Table sync examples, as their JSON says', () => {
	it('every "If Newer" update writes only over an older row (Sync 1, 2 and 3: or a tie, which their plan decides; the imports leave a tie to the reconcile)', () => {
		for (const file of [...PLANNED, 'incremental-import.json', 'large-account-import.json']) {
			const updates = load(file).nodes.filter((node) => node.name.endsWith('If Newer'));
			expect(updates.length).toBeGreaterThan(0);
			for (const node of updates)
				expect({
					file,
					node: node.name,
					match: node.parameters.matchType,
					newer: conditionsOf(node).find((c) => c.keyName === 'updated_ms'),
				}).toEqual({
					file,
					node: node.name,
					match: 'allConditions',
					newer: {
						keyName: 'updated_ms',
						condition: PLANNED.includes(file) ? 'lte' : 'lt',
						keyValue: '={{ $json.updated_ms }}',
					},
				});
		}
	});

	it('Sync 1, 2 and 3 decide every write with the very same rule (one merge in each Plan … Writes and the duplicate sweep)', () => {
		const merges = PLANNED.flatMap((file) =>
			load(file)
				.nodes.filter((node) => node.type === 'n8n-nodes-base.code')
				.map((node) => ({
					node: `${file}: ${node.name}`,
					merge: /^\/\/ Per id: .*?^};$/ms
						.exec(String(node.parameters.jsCode))?.[0]
						.replace('customer_id: id', 'ticket_id: id'),
				})),
		);
		expect(merges).toHaveLength(7);
		for (const { node, merge } of merges)
			expect({ node, merge }).toEqual({ node, merge: merges[0].merge });
		expect(merges[0].merge).toContain(
			'newest === read && columns.some((c) => fromStored(s)[c] !== read[c])',
		);
	});

	it('Sync 2 and 3 find their tables by exact name, insert a missing row over at most a not newer one and remove a second row by its row id only; Sync 2 does not rely on Drop Repeated Deliveries', () => {
		expect(named(webhooks, 'On Any Change').parameters.options).toEqual({ dropDuplicates: false });
		for (const workflow of [webhooks, reconcile]) {
			for (const node of workflow.nodes.filter((n) => n.parameters.dataTableId !== undefined))
				expect(String((node.parameters.dataTableId as Json).value)).toMatch(
					/^=\{\{ \$\('Find Tables'\)\.all\(\)\.find\(\(t\) => t\.json\.name === 'st_(tickets|customers|state)'\)\?\.json\.id /,
				);
			for (const key of ['ticket_id', 'customer_id']) {
				const node = named(workflow, `Insert New ${key === 'ticket_id' ? 'Ticket' : 'Customer'}`);
				expect([node.parameters.operation, node.parameters.matchType, conditionsOf(node)]).toEqual([
					'upsert',
					'allConditions',
					[
						{ keyName: key, condition: 'eq', keyValue: `={{ $json.${key} }}` },
						{ keyName: 'updated_ms', condition: 'lte', keyValue: '={{ $json.updated_ms }}' },
					],
				]);
			}
		}
		for (const file of PLANNED) {
			const removals = load(file).nodes.filter((node) => node.name.startsWith('Remove Duplicate'));
			expect(removals).toHaveLength(2);
			for (const node of removals)
				expect([node.parameters.matchType, conditionsOf(node)[1]]).toEqual([
					'allConditions',
					{ keyName: 'id', condition: 'eq', keyValue: '={{ $json.row_id }}' },
				]);
		}
	});
});

describe('Sync 2 and 3 replayed: two versions within one second of a service with whole-second timestamps', () => {
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

	const printer = () =>
		sandbox.store.createTicket({
			subject: 'Printer',
			description: 'On fire',
			priority: 'normal',
			customer: { email: 'ana@example.com' },
		});
	/** Sync 2's execution for one delivery (only `event` and the record's id matter to it). */
	const deliver = (event: string, id: string, before?: RunContext['before']) =>
		runExample(
			webhooks,
			'On Any Change',
			[{ id: `evt_${event}_${id}`, event, created_at: Math.floor(clock.ms / 1000), data: { id } }],
			{ ...context, before },
		);
	/** One run of Sync 3, by hand, at SECOND + 5 s. */
	const runReconcile = () => {
		clock.ms = SECOND + 5_000;
		return runExample(reconcile, 'Start Reconcile', [{}], context);
	};
	const copy: CopyStore = {
		rows: async (resource) => tables.rows(`st_${resource}`),
		state: async () => undefined,
	};
	const copyEqualsService = async () =>
		mustEqual('the copy differs', await compareWithService(copy, sandbox));
	const priorities = () => tables.rows('st_tickets').map((row) => row.priority);
	/** As the delivery's execution is about to plan, once: the ticket set to urgent at `atMs`, that update delivered in full. */
	const updateBeforePlanning = (ticketId: string, atMs: number, then = () => {}) => {
		let done = false;
		return {
			'Plan Ticket Writes': async () => {
				if (done) return;
				done = true;
				clock.ms = atMs;
				sandbox.store.updateTicket(ticketId, { priority: 'urgent' });
				await deliver('ticket.updated', ticketId);
				then();
			},
		};
	};

	it('the older version written last (its execution found no row before the newer one was inserted): one reconcile, even with its watermark in that second, leaves the copy equal to the service, and the next has nothing to write', async () => {
		const ticket = printer();
		const created = await deliver(
			'ticket.created',
			ticket.id,
			updateBeforePlanning(ticket.id, SECOND + 600, () => expect(priorities()).toEqual(['urgent'])),
		);
		expect(created.output('Get Ticket')[0]).toMatchObject({
			priority: 'normal',
			updated_at: Math.floor(SECOND / 1000),
		});
		// Both versions say the same second: the insert's "updated_ms ≤ new" let the older one over the newer.
		expect(priorities()).toEqual(['normal']);
		await runReconcile();
		await copyEqualsService();
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
		const ticket = printer();
		await deliver('ticket.created', ticket.id);
		await deliver('customer.created', ticket.customer.id);
		clock.ms = SECOND + 600;
		sandbox.store.updateTicket(ticket.id, { priority: 'urgent' });
		await deliver('ticket.updated', ticket.id);
		await copyEqualsService();
	});

	it("the newer version's delivery lost: one reconcile writes it, for a ticket and for a customer", async () => {
		const ticket = printer();
		const customer = sandbox.store.createCustomer({ email: 'bo@example.com', name: 'Bo' });
		await deliver('ticket.created', ticket.id);
		await deliver('customer.created', customer.id);
		await deliver('customer.created', ticket.customer.id);
		clock.ms = SECOND + 900;
		sandbox.store.updateTicket(ticket.id, { priority: 'urgent' });
		sandbox.store.updateCustomer(customer.id, { name: 'Bo Renamed' });
		expect(copyEqual(await compareWithService(copy, sandbox))).toBe(false);
		await runReconcile();
		await copyEqualsService();
	});

	it('a strictly older version written last still never wins: a second row at most, which the reconcile merges', async () => {
		const ticket = printer();
		await deliver('ticket.created', ticket.id, updateBeforePlanning(ticket.id, SECOND + 1_600));
		expect(tables.rows('st_tickets').map((row) => [row.priority, row.updated_at])).toEqual([
			['urgent', String(Math.floor(SECOND / 1000) + 1)],
			['normal', String(Math.floor(SECOND / 1000))],
		]);
		await runReconcile();
		await copyEqualsService();
	});
});
