// examples/sync-by-polling-postgres.json: the Data Table edition's triggers and columns, each record one statement
// inserting it or updating it if not older. In real n8n: `npm run test:sync -- --proof polling-postgres`.
import type { IDataObject } from 'n8n-workflow';

import { READABLE_TIMESTAMPS } from '../nodes/shared/parameters/timestampFormats';
import { load, named, queryParameters as parametersFor } from './postgresExamples';

const workflow = load('sync-by-polling-postgres.json');
const dataTables = load('sync-by-polling.json');

const LANES = [
	{
		trigger: 'On Ticket Change',
		table: 'st_tickets',
		key: 'ticket_id',
		write: 'Upsert Ticket If Not Older',
	},
	{
		trigger: 'On Customer Change',
		table: 'st_customers',
		key: 'customer_id',
		write: 'Upsert Customer If Not Older',
	},
] as const;

/** The columns of the Data Table edition's table, in its order. */
function dataTableColumns(table: string): string[] {
	const create = named(load('sync-initial-import.json'), `Table ${table}`);
	return (create.parameters.columns as { column: Array<{ name: string }> }).column.map(
		(c) => c.name,
	);
}

describe('sync-by-polling-postgres example', () => {
	it('imports: the same triggers as the Data Table edition, each feeding its table creation (once per poll, upper branch) and one write per record', () => {
		const expected: IDataObject = {};
		for (const lane of LANES) {
			const trigger = named(workflow, lane.trigger);
			expect(trigger.parameters).toEqual(named(dataTables, lane.trigger).parameters);
			const create = named(workflow, `Create Table ${lane.table}`);
			const write = named(workflow, lane.write);
			expect(create.executeOnce).toBe(true);
			expect(create.position[1]).toBeLessThan(write.position[1]);
			expected[lane.trigger] = {
				main: [
					[
						{ node: create.name, type: 'main', index: 0 },
						{ node: write.name, type: 'main', index: 0 },
					],
				],
			};
		}
		expect(workflow.connections).toEqual(expected);
		expect(workflow.settings).toMatchObject({ executionOrder: 'v1' });
	});

	it.each(LANES)(
		'$table: the Data Table columns, the id as primary key; the write inserts, or updates only when the stored version is not newer',
		(lane) => {
			const columns = dataTableColumns(lane.table);
			const create = String(named(workflow, `Create Table ${lane.table}`).parameters.query);
			expect(create).toBe(
				`CREATE TABLE IF NOT EXISTS ${lane.table} (${columns.map((c) => `${c} ${c === lane.key ? 'text PRIMARY KEY' : c === 'updated_ms' ? 'bigint NOT NULL' : c === 'updated_at' ? 'text NOT NULL' : 'text'}`).join(', ')});`,
			);
			const query = String(named(workflow, lane.write).parameters.query);
			expect(query).toContain(
				`INSERT INTO ${lane.table} AS t (${columns.join(', ')})\nVALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
			);
			expect(query).toContain(
				`ON CONFLICT (${lane.key}) DO UPDATE SET ${columns
					.filter((c) => c !== lane.key)
					.map((c) => `${c} = EXCLUDED.${c}`)
					.join(', ')}`,
			);
			expect(query.trim().endsWith('WHERE t.updated_ms <= EXCLUDED.updated_ms;')).toBe(true);
		},
	);

	it('the parameters of a record land in the columns, a missing value as null (never left out: that would shift the others)', () => {
		const ticket = {
			id: 'tkt_1',
			subject: 'Subject',
			description: 'Text, with a comma',
			status: 'open',
			priority: 'high',
			customer: { id: 'cus_1', email: 'a@example.com', name: null },
			created_at: '2026-11-01T09:00:00.000Z',
			updated_at: '2026-11-02T10:00:00.123Z',
		};
		expect(parametersFor(named(workflow, 'Upsert Ticket If Not Older'), ticket)).toEqual([
			'tkt_1',
			'Subject',
			'Text, with a comma',
			'open',
			'high',
			'cus_1',
			'2026-11-01T09:00:00.000Z',
			'2026-11-02T10:00:00.123Z',
			Date.parse('2026-11-02T10:00:00.123Z'),
		]);
		const customer = {
			id: 'cus_1',
			email: 'a@example.com',
			created_at: '2026-11-01T09:00:00.000Z',
			updated_at: '2026-11-01T09:00:00.000Z',
		};
		expect(parametersFor(named(workflow, 'Upsert Customer If Not Older'), customer)).toEqual([
			'cus_1',
			'a@example.com',
			null,
			'2026-11-01T09:00:00.000Z',
			'2026-11-01T09:00:00.000Z',
			Date.parse('2026-11-01T09:00:00.000Z'),
		]);
	});

	it('reads every timestamp form the node reads, keeps it as text, and stores text PostgreSQL cannot hold with U+FFFD', () => {
		// The node's table of formats; what it cannot read: test/examples/timestamps.test.tsx.
		for (const [, form, expected] of READABLE_TIMESTAMPS) {
			const record = {
				id: 'cus_1',
				email: 'a@example.com',
				name: 'NUL \u0000, lone \uD800',
				created_at: form,
				updated_at: form,
			};
			expect(parametersFor(named(workflow, 'Upsert Customer If Not Older'), record)).toEqual([
				'cus_1',
				'a@example.com',
				'NUL \uFFFD, lone \uFFFD',
				String(form),
				String(form),
				expected,
			]);
		}
	});
});
