// examples/sync-by-polling.json without a Data Table node: the triggers' parameters (run against the sandbox) and the
// rows they map to. The whole flow, overlapping executions included: `npm run test:sync -- --proof polling`.
import type { IDataObject, INode, INodeProperties, INodeType } from 'n8n-workflow';

import { createPoller, credentialsFor, loadPackageTypes, type WorkflowJson } from '../harness';
import { startSandbox, type Sandbox } from '../../sandbox';
import { READABLE_TIMESTAMPS } from '../nodes/shared/parameters/timestampFormats';
import { evaluate, load, named as namedIn } from './postgresExamples';

const workflow = load('sync-by-polling.json');
const named = (name: string) => namedIn(workflow, name);
const initialImport = load('sync-initial-import.json');
const reference = (name: string) => initialImport.nodes.find((n) => n.name === name) as INode;

/** One lane per resource: trigger → [table (upper branch), upsert → newest row → remove older rows]. */
const LANES = [
	{
		noun: 'Ticket',
		key: 'ticket_id',
		table: 'st_tickets',
		trigger: 'On Ticket Change',
		event: 'updatedTicket',
		updateNode: 'Update Ticket If Newer',
	},
	{
		noun: 'Customer',
		key: 'customer_id',
		table: 'st_customers',
		trigger: 'On Customer Change',
		event: 'updatedCustomer',
		updateNode: 'Update Customer If Newer',
	},
] as const;

const laneNodes = (lane: (typeof LANES)[number]) => ({
	trigger: named(lane.trigger),
	table: named(`Table ${lane.table}`),
	upsert: named(`Upsert ${lane.noun} Row`),
	newest: named(`Newest ${lane.noun} Row`),
	older: named(`Remove Older ${lane.noun} Rows`),
});

const edge = (node: INode) => ({ node: node.name, type: 'main', index: 0 });
const conditions = (node: INode) =>
	(node.parameters.filters as { conditions: unknown[] }).conditions;

describe('sync-by-polling example', () => {
	it('imports: two lanes, each a poll trigger → its table (created if missing, once per poll, upper branch) and an upsert followed by the order-safe clean-up', () => {
		const expected: IDataObject = {};
		for (const lane of LANES) {
			const n = laneNodes(lane);
			expected[n.trigger.name] = { main: [[edge(n.table), edge(n.upsert)]] };
			expected[n.upsert.name] = { main: [[edge(n.newest)]] };
			expected[n.newest.name] = { main: [[edge(n.older)]] };
			// n8n's v1 execution order runs branches top to bottom: the table is known before the upsert runs.
			expect(n.table.position[1]).toBeLessThan(n.upsert.position[1]);
			expect(n.table.executeOnce).toBe(true);
			// The same table, columns and all, as the other sync examples create.
			expect(n.table.parameters).toEqual(reference(`Table ${lane.table}`).parameters);
		}
		expect(workflow.connections).toEqual(expected);
		expect(workflow.settings).toMatchObject({ executionOrder: 'v1' });
	});

	it("the triggers' parameters are the node's own: Updated Ticket and Updated Customer, each emitting existing records on its first poll", async () => {
		const { nodeTypes } = await loadPackageTypes();
		for (const lane of LANES) {
			const trigger = named(lane.trigger);
			const properties = (
				nodeTypes.getByNameAndVersion(trigger.type, trigger.typeVersion) as INodeType
			).description.properties;
			const property = (name: string) => properties.find((p) => p.name === name) as INodeProperties;
			// pollTimes is the property n8n adds to every polling node.
			for (const name of Object.keys(trigger.parameters).filter((n) => n !== 'pollTimes'))
				expect({ name, known: Boolean(property(name)) }).toEqual({ name, known: true });
			expect((property('event').options as Array<{ value: string }>).map((o) => o.value)).toContain(
				trigger.parameters.event,
			);
			expect(trigger.parameters.event).toBe(lane.event);
			expect(trigger.parameters.options).toEqual({ emitExisting: true });
		}
	});

	it('each version is written under its own updated_ms, then every version older than the newest stored one is removed: the newest updated_at wins in any order', () => {
		for (const lane of LANES) {
			const n = laneNodes(lane);
			const tableId = {
				__rl: true,
				mode: 'id',
				value: `={{ $('Table ${lane.table}').first().json.id }}`,
			};
			// The row the trigger's record becomes: the columns (and schema) the other sync examples write.
			const written = reference(lane.updateNode).parameters.columns as {
				value: IDataObject;
				schema: unknown;
			};
			expect(n.upsert.parameters).toMatchObject({
				resource: 'row',
				operation: 'upsert',
				dataTableId: tableId,
				matchType: 'allConditions',
			});
			expect(conditions(n.upsert)).toEqual([
				{ keyName: lane.key, condition: 'eq', keyValue: '={{ $json.id }}' },
				{
					keyName: 'updated_ms',
					condition: 'eq',
					keyValue: (n.upsert.parameters.columns as { value: IDataObject }).value.updated_ms,
				},
			]);
			const columns = n.upsert.parameters.columns as { value: IDataObject; schema: unknown };
			// updated_ms from every timestamp form the node reads (the node's table of formats).
			for (const [name, form, expected] of READABLE_TIMESTAMPS) {
				expect({ name, ms: evaluate(columns.value.updated_ms, { updated_at: form }) }).toEqual({
					name,
					ms: expected,
				});
			}
			expect(columns.schema).toEqual(written.schema);
			expect(Object.keys(columns.value).sort()).toEqual(Object.keys(written.value).sort());
			// Then the rows, not the trigger's record: the newest version stored for this id…
			const thisRecord = {
				keyName: lane.key,
				condition: 'eq',
				keyValue: `={{ $json.${lane.key} }}`,
			};
			expect(n.newest.parameters).toEqual({
				resource: 'row',
				operation: 'get',
				dataTableId: tableId,
				matchType: 'allConditions',
				filters: { conditions: [thisRecord] },
				limit: 1,
				orderBy: true,
				orderByColumn: 'updated_ms',
				orderByDirection: 'DESC',
			});
			// …and every version before it goes. (Row Exists would not do here: it compares by equality only.)
			expect(n.older.parameters).toMatchObject({
				resource: 'row',
				operation: 'deleteRows',
				dataTableId: tableId,
				matchType: 'allConditions',
			});
			expect(conditions(n.older)).toEqual([
				thisRecord,
				{ keyName: 'updated_ms', condition: 'lt', keyValue: '={{ $json.updated_ms }}' },
			]);
		}
	});

	describe('run: the triggers as the example has them, against the sandbox', () => {
		let sandbox: Sandbox;
		const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
		beforeAll(
			async () =>
				(sandbox = await startSandbox({ seed: 130, now: () => clock.ms, maxSkewSeconds: 10 ** 9 })),
		);
		afterAll(async () => sandbox.stop());

		it('first poll: every existing record (the initial import), then each change once; each emitted record maps to a complete row', async () => {
			// Without the Data Table nodes, which run only in real n8n.
			const only = (name: string): WorkflowJson => ({
				...workflow,
				nodes: [named(name)],
				connections: {},
			});
			const tickets = await createPoller(
				only('On Ticket Change'),
				{ supportTicketApi: credentialsFor(sandbox) },
				'On Ticket Change',
			);
			const customers = await createPoller(
				only('On Customer Change'),
				{ supportTicketApi: credentialsFor(sandbox) },
				'On Customer Change',
			);
			const firstTickets = await tickets.poll();
			expect(firstTickets.execution?.error).toBeUndefined();
			expect(new Set(firstTickets.items?.map((item) => item.json.id)).size).toBe(
				sandbox.store.ticketCount,
			);
			expect(new Set((await customers.poll()).items?.map((item) => item.json.id)).size).toBe(
				sandbox.store.customerCount,
			);
			expect((await tickets.poll()).items).toBeNull();
			expect((await customers.poll()).items).toBeNull();

			clock.ms += 60_000;
			const changed = sandbox.store.updateTicket(sandbox.store.listTickets({})[50].id, {
				status: 'solved',
			});
			const renamed = sandbox.store.updateCustomer(sandbox.store.listCustomers()[3].id, {
				name: 'Renamed',
			});
			const polled = await tickets.poll();
			expect(polled.items?.map((item) => [item.json.id, item.json.status])).toEqual([
				[changed.id, 'solved'],
			]);
			const polledCustomers = await customers.poll();
			expect(polledCustomers.items?.map((item) => [item.json.id, item.json.name])).toEqual([
				[renamed.id, 'Renamed'],
			]);

			expect(rowFor('Upsert Ticket Row', polled.items?.[0].json as IDataObject)).toEqual({
				ticket_id: changed.id,
				subject: changed.subject,
				description: changed.description,
				status: 'solved',
				priority: changed.priority,
				customer_id: changed.customer.id,
				created_at: changed.created_at,
				updated_at: changed.updated_at,
				updated_ms: Date.parse(changed.updated_at),
			});
			expect(rowFor('Upsert Customer Row', polledCustomers.items?.[0].json as IDataObject)).toEqual(
				{
					customer_id: renamed.id,
					email: renamed.email,
					name: 'Renamed',
					created_at: renamed.created_at,
					updated_at: renamed.updated_at,
					updated_ms: Date.parse(renamed.updated_at),
				},
			);
		});
	});
});

/** The Data Table columns as n8n would compute them for one item: each `={{ … }}` over `$json`. */
function rowFor(node: string, json: IDataObject): IDataObject {
	const value = (named(node).parameters.columns as { value: Record<string, string> }).value;
	return Object.fromEntries(
		Object.entries(value).map(([column, expression]) => [column, evaluate(expression, json)]),
	) as IDataObject;
}
