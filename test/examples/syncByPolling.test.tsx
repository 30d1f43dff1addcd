// examples/sync-by-polling.json and its PostgreSQL edition without n8n's Data Table and Postgres nodes: the rows their
// records map to. Whole flows in real n8n: `npm run test:sync -- --proof polling`
// (and `--proof polling-postgres`).
import type { IDataObject, INode } from 'n8n-workflow';

import { READABLE_TIMESTAMPS } from '../nodes/shared/parameters/timestampFormats';
import {
	CUSTOMER_ROW,
	evaluate,
	load,
	named,
	pollingTables,
	queryParameters,
	SERVICE_CUSTOMER,
	SERVICE_TICKET,
	TICKET_ROW,
} from './postgresExamples';

const dataTables = load('sync-by-polling.json');
const postgres = load('sync-by-polling-postgres.json');
const tables = pollingTables();
const LANES = (['Ticket', 'Customer'] as const).map((noun) => ({
	noun,
	table: noun === 'Ticket' ? tables.tickets : tables.customers,
	trigger: `On ${noun} Change`,
	event: `updated${noun}`,
}));
const conditions = (node: INode) =>
	(node.parameters.filters as { conditions: unknown[] }).conditions;
const edges = (...nodes: INode[]) => nodes.map((n) => ({ node: n.name, type: 'main', index: 0 }));

/** The Data Table row n8n computes for one record: each `={{ … }}` column over `$json`, a missing value null. */
const dataTableRow = (noun: string, json: IDataObject) =>
	Object.fromEntries(
		Object.entries(
			(named(dataTables, `Upsert ${noun} Row`).parameters.columns as { value: IDataObject }).value,
		).map(([column, expression]) => [column, evaluate(expression, json) ?? null]),
	);
/** The PostgreSQL edition's row for one record: its Query Parameters named by the table's columns. */
const postgresRow = (lane: (typeof LANES)[number], json: IDataObject) => {
	const values = queryParameters(named(postgres, `Upsert ${lane.noun} If Not Older`), json);
	return Object.fromEntries(lane.table.columns.map((column, i) => [column, values[i]]));
};

describe('sync-by-polling, Data Tables and PostgreSQL', () => {
	it.each(LANES)(
		'$noun: the same trigger ($event, existing records first) creates its table once per poll on the upper branch, then writes',
		(lane) => {
			for (const [workflow, create, writes] of [
				[dataTables, `Table ${lane.table.name}`, `Upsert ${lane.noun} Row`],
				[postgres, `Create Table ${lane.table.name}`, `Upsert ${lane.noun} If Not Older`],
			] as const) {
				const trigger = named(workflow, lane.trigger);
				expect(trigger.parameters).toMatchObject({
					event: lane.event,
					options: { emitExisting: true },
				});
				const [table, write] = [named(workflow, create), named(workflow, writes)];
				expect(workflow.connections[lane.trigger]).toEqual({ main: [edges(table, write)] });
				// n8n's v1 order runs the upper branch first: the table exists before the write.
				expect([table.executeOnce, table.position[1] < write.position[1]]).toEqual([true, true]);
				expect(workflow.settings).toMatchObject({ executionOrder: 'v1' });
			}
		},
	);

	it.each(LANES)(
		'$noun: the newest updated_at wins in any order: a row per version, then the older ones removed (Data Tables); an upsert only over a version not newer (PostgreSQL)',
		(lane) => {
			const key = lane.table.key;
			const upsert = named(dataTables, `Upsert ${lane.noun} Row`);
			expect(conditions(upsert)).toEqual([
				{ keyName: key, condition: 'eq', keyValue: '={{ $json.id }}' },
				{
					keyName: 'updated_ms',
					condition: 'eq',
					keyValue: (upsert.parameters.columns as { value: IDataObject }).value.updated_ms,
				},
			]);
			const thisRecord = { keyName: key, condition: 'eq', keyValue: `={{ $json.${key} }}` };
			expect(named(dataTables, `Newest ${lane.noun} Row`).parameters).toMatchObject({
				operation: 'get',
				filters: { conditions: [thisRecord] },
				limit: 1,
				orderByColumn: 'updated_ms',
				orderByDirection: 'DESC',
			});
			expect(conditions(named(dataTables, `Remove Older ${lane.noun} Rows`))).toEqual([
				thisRecord,
				{ keyName: 'updated_ms', condition: 'lt', keyValue: '={{ $json.updated_ms }}' },
			]);
			expect(dataTables.connections[upsert.name]).toEqual({
				main: [edges(named(dataTables, `Newest ${lane.noun} Row`))],
			});
			const query = String(named(postgres, `Upsert ${lane.noun} If Not Older`).parameters.query);
			expect(query).toContain(`ON CONFLICT (${key}) DO UPDATE SET`);
			expect(query.trim().endsWith('WHERE t.updated_ms <= EXCLUDED.updated_ms;')).toBe(true);
		},
	);

	it('both editions write the same complete row, a missing value null, updated_ms from every timestamp form the node reads (the text kept); PostgreSQL text without NUL or lone surrogates', () => {
		const [tickets, customers] = LANES;
		for (const [lane, record, row] of [
			[tickets, SERVICE_TICKET, TICKET_ROW],
			[customers, SERVICE_CUSTOMER, CUSTOMER_ROW],
		] as const) {
			expect(dataTableRow(lane.noun, record)).toEqual(row);
			expect(postgresRow(lane, record)).toEqual(row);
		}
		for (const [name, form, ms] of READABLE_TIMESTAMPS) {
			const record = { ...SERVICE_CUSTOMER, created_at: form, updated_at: form };
			const row = {
				...CUSTOMER_ROW,
				created_at: String(form),
				updated_at: String(form),
				updated_ms: ms,
			};
			expect({ name, row: dataTableRow('Customer', record) }).toEqual({ name, row });
			expect({ name, row: postgresRow(customers, record) }).toEqual({ name, row });
		}
		expect(
			postgresRow(customers, { ...SERVICE_CUSTOMER, name: 'NUL \u0000, lone \uD800' }).name,
		).toBe('NUL \uFFFD, lone \uFFFD');
	});
	// The triggers as the examples have them, first poll and each change after: the polling proofs in real n8n.
});
