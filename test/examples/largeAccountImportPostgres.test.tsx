/**
 * examples/large-account-import-postgres.json: the initial import into PostgreSQL, one page per
 * execution. In-process there is no Postgres node and no n8n server to start an execution from
 * another, so this checks the import: the chain (triggers, page, write, next execution), the
 * tables (those of sync-by-polling-postgres), the statements, and what the Query Parameters give
 * for a page. The chain in real n8n, with a stop part-way and its resume, is `npm run test:sync
 * -- --proof webhooks-postgres` (queue mode).
 */
import type { IDataObject } from 'n8n-workflow';

import {
	CUSTOMER_ROW,
	evaluate,
	expectedUpsert,
	highestPlaceholder,
	load,
	named,
	pollingTables,
	POSTGRES_CREDENTIAL,
	queryParameters,
	SERVICE_CUSTOMER,
	SERVICE_TICKET,
	TICKET_ROW,
} from './postgresExamples';

const workflow = load('large-account-import-postgres.json');
const tables = pollingTables();
const READ = 'Create Tables, Read Position';
const LANES = [
	{ resource: 'tickets', get: 'Get Page of Tickets', write: 'Write Ticket Page, Save Position', table: tables.tickets, record: SERVICE_TICKET, row: TICKET_ROW, after: 'customers:' },
	{ resource: 'customers', get: 'Get Page of Customers', write: 'Write Customer Page, Save Position', table: tables.customers, record: SERVICE_CUSTOMER, row: CUSTOMER_ROW, after: 'done' },
] as const;
const link = (...names: string[]) => names.map((node) => ({ node, type: 'main', index: 0 }));

describe('large-account-import-postgres example', () => {
	it('imports: started by hand or by itself, one page per execution, the next page in an execution of its own', () => {
		expect(workflow.connections).toEqual({
			'Start Import': { main: [link(READ)] },
			'Next Page': { main: [link(READ)] },
			[READ]: { main: [link('Tickets or Customers?')] },
			'Tickets or Customers?': { main: [link('Get Page of Tickets'), link('Get Page of Customers')] },
			'Get Page of Tickets': { main: [link('Write Ticket Page, Save Position')] },
			'Write Ticket Page, Save Position': { main: [link('More Pages?')] },
			'Get Page of Customers': { main: [link('Write Customer Page, Save Position')] },
			'Write Customer Page, Save Position': { main: [link('More Pages?')] },
			'More Pages?': { main: [link('Import Next Page')] },
		});
		expect(named(workflow, 'Start Import').type).toBe('n8n-nodes-base.manualTrigger');
		const next = named(workflow, 'Next Page');
		expect([next.type, next.parameters]).toEqual(['n8n-nodes-base.executeWorkflowTrigger', { inputSource: 'passthrough' }]);
		const call = named(workflow, 'Import Next Page');
		expect(call.type).toBe('n8n-nodes-base.executeWorkflow');
		expect(call.parameters).toEqual({ source: 'database', workflowId: { __rl: true, mode: 'id', value: '={{ $workflow.id }}' }, mode: 'once', options: { waitForSubWorkflow: false } });
		// Successful page executions are not kept: n8n's execution table does not grow with the account.
		expect(workflow.settings).toMatchObject({ executionOrder: 'v1', saveDataSuccessExecution: 'none', saveDataErrorExecution: 'all' });
		for (const lane of LANES) {
			expect(named(workflow, lane.get).parameters).toEqual({ resource: lane.resource.slice(0, -1), operation: 'getAll', pagination: 'onePage', cursor: '={{ $json.cursor }}', pageSize: 100 });
		}
		for (const node of workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.postgres')) expect(node.credentials).toEqual(POSTGRES_CREDENTIAL);
		expect(workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.code')).toEqual([]);
	});

	it('creates the tables of sync-by-polling-postgres (so the polling, webhook and reconcile workflows share them) and its state table', () => {
		const statements = String(named(workflow, READ).parameters.query).split('\n');
		for (const create of tables.createStatements) expect(statements).toContain(create);
		expect(statements).toContain('CREATE TABLE IF NOT EXISTS st_import_state (key text PRIMARY KEY, value text NOT NULL, saved_at timestamptz NOT NULL DEFAULT now());');
	});

	it('reads the saved position: the first start begins with tickets; a start by hand after a finished import starts over, a chained one does not', () => {
		const read = named(workflow, READ);
		const query = String(read.parameters.query);
		expect(query).toContain("INSERT INTO st_import_state (key, value) VALUES ('import_position', 'tickets:'), ('reconcile_since', ");
		expect(query).toContain("ON CONFLICT (key) DO NOTHING;");
		expect(query).toContain("UPDATE st_import_state SET value = 'tickets:', saved_at = now() WHERE key = 'import_position' AND value = 'done' AND $1;");
		expect(highestPlaceholder(query)).toBe(1);
		expect(queryParameters(read, {}, { 'Start Import': [{}] })).toEqual([true]);
		expect(queryParameters(read, { position: 'tickets:abc' }, { 'Next Page': [{ position: 'tickets:abc' }] })).toEqual([false]);
		const route = named(workflow, 'Tickets or Customers?');
		expect(route.parameters.numberOutputs).toBe(3);
		expect(['tickets', 'customers', 'done', undefined].map((resource) => evaluate(route.parameters.output, { resource }))).toEqual([0, 1, 2, 2]);
	});

	it.each(LANES)('$resource: a page is one newer-only upsert of all its rows, then the next position, saved only if no other run moved it', (lane) => {
		const write = named(workflow, lane.write);
		const query = String(write.parameters.query);
		expect(query).toContain(expectedUpsert(lane.table));
		expect(query.trim().endsWith("UPDATE st_import_state SET value = $3, saved_at = now() WHERE key = 'import_position' AND value = $2 RETURNING value AS position;")).toBe(true);
		expect(highestPlaceholder(query)).toBe(3);
	});

	it.each(LANES)('$resource: the page becomes rows with every column of the table, null kept, and the position moves on', (lane) => {
		const write = named(workflow, lane.write);
		const outputs = { [READ]: [{ resource: lane.resource, cursor: 'c1', position: `${lane.resource}:c1` }] };
		const other = { ...lane.record, id: `${String(lane.record.id)}_2` };
		const page = (hasMore: boolean): IDataObject => ({ data: [lane.record, other], count: 2, has_more: hasMore, next_cursor: hasMore ? 'c2' : null });
		const [rows, from, to] = queryParameters(write, page(true), outputs);
		const parsed = JSON.parse(String(rows)) as IDataObject[];
		expect(parsed).toEqual([lane.row, { ...lane.row, [lane.table.key]: other.id }]);
		// Named like the columns, in their order: json_populate_recordset puts each value in its column.
		expect(Object.keys(parsed[0])).toEqual(lane.table.columns);
		expect([from, to]).toEqual([`${lane.resource}:c1`, `${lane.resource}:c2`]);
		expect(queryParameters(write, page(false), outputs).slice(1)).toEqual([`${lane.resource}:c1`, lane.after]);
		expect(JSON.parse(String(queryParameters(write, { data: [], count: 0, has_more: false, next_cursor: null }, outputs)[0]))).toEqual([]);
	});

	it('calls the next page only after a position other than done was saved (not when another run had moved it: no row comes back)', () => {
		const more = named(workflow, 'More Pages?');
		const condition = (more.parameters.conditions as { conditions: Array<{ leftValue: string }> }).conditions[0].leftValue;
		expect([{ position: 'tickets:c2' }, { position: 'customers:' }, { position: 'done' }, { success: true }].map((json) => evaluate(condition, json))).toEqual([true, true, false, false]);
	});

	it('explains what it does, how to resume, the tables, and that it writes no older state over a newer one', () => {
		const note = String(workflow.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote')?.parameters.content);
		for (const words of ['one page of 100 per execution', 'Publish this workflow', 'Resume', 'st_import_state', 'no older state is ever written over a newer one', 'null']) expect(note).toContain(words);
		for (const create of [...tables.createStatements, 'CREATE TABLE IF NOT EXISTS st_import_state (']) expect(note).toContain(create);
	});
});
