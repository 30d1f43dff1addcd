// examples/large-account-import-postgres.json without a Postgres node or an n8n server: the chain, tables, statements and
// Query Parameters. In real n8n, with a stop part-way and its resume: `npm run test:sync -- --proof webhooks-postgres`.
import type { IDataObject } from 'n8n-workflow';

import {
	CUSTOMER_ROW,
	evaluate,
	EXECUTION_ID,
	expectedUpsert,
	highestPlaceholder,
	load,
	named,
	pollingTables,
	queryParameters,
	SERVICE_CUSTOMER,
	SERVICE_TICKET,
	TICKET_ROW,
} from './postgresExamples';

const workflow = load('large-account-import-postgres.json');
const tables = pollingTables();
const READ = 'Create Tables, Read Position';
const STILL = 'Still This Run?';
const LANES = [
	{
		resource: 'tickets',
		get: 'Get Page of Tickets',
		next: 'Next Ticket Position',
		write: 'Write Ticket Page, Save Position',
		table: tables.tickets,
		record: SERVICE_TICKET,
		row: TICKET_ROW,
		after: 'done',
	},
	{
		resource: 'customers',
		get: 'Get Page of Customers',
		next: 'Next Customer Position',
		write: 'Write Customer Page, Save Position',
		table: tables.customers,
		record: SERVICE_CUSTOMER,
		row: CUSTOMER_ROW,
		after: 'done',
	},
] as const;
const link = (...names: string[]) => names.map((node) => ({ node, type: 'main', index: 0 }));

describe('large-account-import-postgres example', () => {
	it('imports: started by hand or by itself, 10 pages per execution, the next ones in an execution of its own', () => {
		expect(workflow.connections).toEqual({
			'Start Import': { main: [link(READ)] },
			'Next Page': { main: [link(STILL)] },
			[READ]: { main: [link('Tickets or Customers?')] },
			[STILL]: { main: [link('Tickets or Customers?')] },
			'Tickets or Customers?': {
				main: [link('Get Page of Tickets'), link('Get Page of Customers')],
			},
			'Get Page of Tickets': {
				main: [link('Next Ticket Position', 'Write Ticket Page, Save Position')],
			},
			'Get Page of Customers': {
				main: [link('Next Customer Position', 'Write Customer Page, Save Position')],
			},
			'Next Ticket Position': { main: [link('More Pages?')] },
			'Next Customer Position': { main: [link('More Pages?')] },
			'More Pages?': { main: [link('Import Next Page')] },
		});
		// n8n's v1 order runs the upper branch first: the next page's execution starts before this page is written.
		for (const lane of LANES)
			expect(named(workflow, lane.next).position[1]).toBeLessThan(
				named(workflow, lane.write).position[1],
			);
		expect(named(workflow, 'Start Import').type).toBe('n8n-nodes-base.manualTrigger');
		const next = named(workflow, 'Next Page');
		expect([next.type, next.parameters]).toEqual([
			'n8n-nodes-base.executeWorkflowTrigger',
			{ inputSource: 'passthrough' },
		]);
		const call = named(workflow, 'Import Next Page');
		expect(call.type).toBe('n8n-nodes-base.executeWorkflow');
		expect(call.parameters).toEqual({
			source: 'database',
			workflowId: { __rl: true, mode: 'id', value: '={{ $workflow.id }}' },
			mode: 'once',
			options: { waitForSubWorkflow: false },
		});
		// Successful page executions are not kept: n8n's execution table does not grow with the account.
		expect(workflow.settings).toMatchObject({
			executionOrder: 'v1',
			saveDataSuccessExecution: 'none',
			saveDataErrorExecution: 'all',
		});
		for (const lane of LANES) {
			expect(named(workflow, lane.get).parameters).toEqual({
				resource: lane.resource.slice(0, -1),
				operation: 'getAll',
				pagination: 'onePage',
				cursor: '={{ $json.cursor }}',
				pageSize: 100,
				pagesPerRun: 10,
				// Tickets from both ends at once; customers as one chain (a service may not sort them).
				...(lane.resource === 'tickets' ? { options: { readFromBothEnds: true } } : {}),
			});
		}
		expect(workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.code')).toEqual([]);
	});

	it('creates the tables of sync-by-polling-postgres (so the polling, webhook and reconcile workflows share them) and its state tables', () => {
		const statements = String(named(workflow, READ).parameters.query).split('\n');
		for (const create of tables.createStatements) expect(statements).toContain(create);
		expect(statements).toContain(
			'CREATE TABLE IF NOT EXISTS st_import_state (key text PRIMARY KEY, value text NOT NULL, saved_at timestamptz NOT NULL DEFAULT now());',
		);
		expect(statements).toContain(
			// A position from both ends can pass the 2,704 bytes a btree key holds: the key is its md5.
			'CREATE TABLE IF NOT EXISTS st_import_pages (position text NOT NULL, next_position text NOT NULL, position_md5 text GENERATED ALWAYS AS (md5(position)) STORED PRIMARY KEY);',
		);
	});

	it('started by hand: begins both chains (tickets, customers) the first time, starts over once both are done, and becomes the run that goes on', () => {
		const read = named(workflow, READ);
		const query = String(read.parameters.query);
		expect(query).toContain(
			"INSERT INTO st_import_state (key, value) VALUES ('tickets_position', 'tickets:'), ('customers_position', 'customers:'), ('import_run', ''), ('reconcile_since', ",
		);
		expect(query).toContain('ON CONFLICT (key) DO NOTHING;');
		const bothDone =
			"NOT EXISTS (SELECT FROM st_import_state WHERE key IN ('tickets_position', 'customers_position') AND value <> 'done')";
		expect(query).toContain(`DELETE FROM st_import_pages WHERE ${bothDone};`);
		expect(query).toContain(
			`UPDATE st_import_state SET value = split_part(key, '_', 1) || ':', saved_at = now() WHERE key IN ('tickets_position', 'customers_position') AND ${bothDone};`,
		);
		expect(query).toContain(
			"UPDATE st_import_state SET value = $1, saved_at = now() WHERE key = 'import_run';",
		);
		// A row per chain not done, tickets first: the first execution starts both chains.
		expect(
			query
				.trim()
				.endsWith(
					"value AS position, $1 AS run FROM st_import_state WHERE key IN ('tickets_position', 'customers_position') AND value <> 'done' ORDER BY key DESC;",
				),
		).toBe(true);
		expect(queryParameters(read, {}, { 'Start Import': [{}] })).toEqual([EXECUTION_ID]);
		const route = named(workflow, 'Tickets or Customers?');
		expect(route.parameters.numberOutputs).toBe(3);
		expect(
			['tickets', 'customers', 'done', undefined].map((resource) =>
				evaluate(route.parameters.output, { resource }),
			),
		).toEqual([0, 1, 2, 2]);
	});

	it('started by the execution before: reads its page from the position handed over, only while its run is still the one going on', () => {
		const still = named(workflow, STILL);
		const query = String(still.parameters.query);
		// Only while its run is the import's and its chain not done; a page of its chain being saved (FOR UPDATE in the write) is waited for.
		expect(
			query
				.trim()
				.endsWith(
					"FROM st_import_state WHERE key = 'import_run' AND value = $2 AND EXISTS (SELECT FROM st_import_state WHERE key = split_part($1, ':', 1) || '_position' AND value <> 'done' FOR SHARE);",
				),
		).toBe(true);
		expect(query).toContain(
			"SELECT split_part($1, ':', 1) AS resource, substr($1, strpos($1, ':') + 1) AS cursor, $1 AS position, value AS run",
		);
		expect(queryParameters(still, { position: 'customers:abc', run: '12' })).toEqual([
			'customers:abc',
			'12',
		]);
		// No row (another start by hand made a new run, or done): the Postgres node 2.6 then gives no item and
		// nothing follows; were it { success: true }, as for statements that return no rows, that goes nowhere too.
		expect(
			evaluate(named(workflow, 'Tickets or Customers?').parameters.output, { success: true }),
		).toBe(2);
	});

	it.each(LANES)(
		'$resource: the position handed to the next page: its cursor while there are more, then $after; the run goes with it',
		(lane) => {
			const next = named(workflow, lane.next);
			const assignments = (
				next.parameters.assignments as {
					assignments: Array<{ name: string; value: string; type: string }>;
				}
			).assignments;
			expect(assignments.map((a) => [a.name, a.type])).toEqual([
				['position', 'string'],
				['run', 'string'],
			]);
			expect(next.parameters.includeOtherFields).toBe(false);
			const outputs = {
				'Tickets or Customers?': [
					{ resource: lane.resource, cursor: 'c1', position: `${lane.resource}:c1`, run: '12' },
				],
			};
			const hand = (page: IDataObject) =>
				Object.fromEntries(assignments.map((a) => [a.name, evaluate(a.value, page, outputs)]));
			expect(hand({ data: [], has_more: true, next_cursor: 'c2' })).toEqual({
				position: `${lane.resource}:c2`,
				run: '12',
			});
			expect(hand({ data: [], has_more: false, next_cursor: null })).toEqual({
				position: lane.after,
				run: '12',
			});
		},
	);

	it.each(LANES)(
		'$resource: a page is one newer-only upsert of all its rows, saves of its chain one at a time, and moves the position of its chain past every page written so far',
		(lane) => {
			const write = named(workflow, lane.write);
			const query = String(write.parameters.query);
			const key = `'${lane.resource}_position'`;
			expect(
				query.indexOf(`SELECT FROM st_import_state WHERE key = ${key} FOR UPDATE;`),
			).toBeLessThan(query.indexOf(expectedUpsert(lane.table)));
			expect(query).toContain(expectedUpsert(lane.table));
			// Noted only while the writer's run ($4) is the import's: a replaced run's first page (no cursor) may differ from the new run's.
			expect(query).toContain(
				"INSERT INTO st_import_pages (position, next_position) SELECT $2, $3 WHERE EXISTS (SELECT FROM st_import_state WHERE key = 'import_run' AND value = $4) ON CONFLICT (position_md5) DO UPDATE SET next_position = EXCLUDED.next_position;",
			);
			// The row at the walk's end stays: at the depth bound it has not been followed yet.
			expect(query).toContain(
				'passed AS (DELETE FROM st_import_pages WHERE position_md5 IN (SELECT md5(position) FROM written WHERE depth < (SELECT max(depth) FROM written)))',
			);
			expect(query).toContain(`SELECT value, 0 FROM st_import_state WHERE key = ${key}\n`);
			expect(
				query
					.trim()
					.endsWith(
						`UPDATE st_import_state SET value = (SELECT position FROM written ORDER BY depth DESC LIMIT 1), saved_at = now() WHERE key = ${key} RETURNING value AS position;`,
					),
			).toBe(true);
			expect(highestPlaceholder(query)).toBe(4);
		},
	);

	it.each(LANES)(
		'$resource: the page becomes rows with every column of the table, null kept; the page noted is from its position to the one handed on, with its run',
		(lane) => {
			const write = named(workflow, lane.write);
			const outputs = (to: string) => ({
				'Tickets or Customers?': [
					{ resource: lane.resource, cursor: 'c1', position: `${lane.resource}:c1`, run: '12' },
				],
				[lane.next]: [{ position: to, run: '12' }],
			});
			const other = { ...lane.record, id: `${String(lane.record.id)}_2` };
			const page: IDataObject = {
				data: [lane.record, other],
				count: 2,
				has_more: true,
				next_cursor: 'c2',
			};
			const [rows, from, to, run] = queryParameters(write, page, outputs(`${lane.resource}:c2`));
			const parsed = JSON.parse(String(rows)) as IDataObject[];
			expect(parsed).toEqual([lane.row, { ...lane.row, [lane.table.key]: other.id }]);
			// Named like the columns, in their order: json_populate_recordset puts each value in its column.
			expect(Object.keys(parsed[0])).toEqual(lane.table.columns);
			expect([from, to, run]).toEqual([`${lane.resource}:c1`, `${lane.resource}:c2`, '12']);
			expect(
				queryParameters(write, { ...page, has_more: false }, outputs(lane.after)).slice(1),
			).toEqual([`${lane.resource}:c1`, lane.after, '12']);
			expect(
				JSON.parse(
					String(
						queryParameters(
							write,
							{ data: [], count: 0, has_more: false, next_cursor: null },
							outputs(lane.after),
						)[0],
					),
				),
			).toEqual([]);
		},
	);

	it('calls the next page unless the position handed on is done', () => {
		const more = named(workflow, 'More Pages?');
		const condition = (more.parameters.conditions as { conditions: Array<{ leftValue: string }> })
			.conditions[0].leftValue;
		expect(
			[{ position: 'tickets:c2' }, { position: 'customers:c2' }, { position: 'done' }].map((json) =>
				evaluate(condition, json),
			),
		).toEqual([true, true, false]);
	});
});
