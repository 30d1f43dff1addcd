/**
 * The sync examples' own rules, checked without n8n (the whole flow runs in real n8n in
 * `npm run test:sync`): the Plan … Writes Code nodes never move a row backwards, every conditional
 * write repeats the "newer" check in its filter, and no state lives in workflow static data.
 */
import { readFileSync } from 'node:fs';

import { repoPath, type WorkflowJson } from '../harness';

// incremental-import writes into the same st_tickets table with the same rules.
const SYNC_FILES = ['sync-initial-import.json', 'sync-webhooks.json', 'sync-reconcile.json', 'incremental-import.json'];
const load = (file: string) => JSON.parse(readFileSync(repoPath('examples', file), 'utf8')) as WorkflowJson;

type Json = Record<string, unknown>;

/** Runs a Plan … Writes Code node the way n8n's Code node (all items at once) does. */
function runPlan(code: string, nodes: Record<string, Json[]>, stored: Json[]): Json[] {
	const $ = (name: string) => ({
		all: () => (nodes[name] ?? []).map((json) => ({ json })),
		first: () => ({ json: (nodes[name] ?? [])[0] ?? {} }),
	});
	const $input = { all: () => stored.map((json) => ({ json })) };
	const run = new Function('$', '$input', code) as (...args: unknown[]) => Array<{ json: Json }>;
	return run($, $input).map((item) => item.json);
}

const ticket = (id: string, updatedAt: string, subject = 'S'): Json => ({
	id,
	subject,
	description: 'd',
	status: 'open',
	priority: 'normal',
	customer: { id: 'cus_1' },
	created_at: '2026-01-01T00:00:00.000Z',
	updated_at: updatedAt,
});
const row = (rowId: number, ticketId: string, updatedAt: string): Json => ({ id: rowId, ticket_id: ticketId, updated_at: updatedAt, updated_ms: Date.parse(updatedAt) });

describe('sync examples', () => {
	it.each(SYNC_FILES)('%s keeps no state in workflow static data (queue-mode workers do not get it back)', (file) => {
		expect(JSON.stringify(load(file))).not.toContain('getWorkflowStaticData');
	});

	it.each(SYNC_FILES)('%s: every "If Newer" update writes only where the stored updated_ms is lower', (file) => {
		const updates = load(file).nodes.filter((node) => node.name.endsWith('If Newer'));
		expect(updates.length).toBeGreaterThan(0);
		for (const node of updates) {
			const conditions = (node.parameters.filters as { conditions: Json[] }).conditions;
			expect({ node: node.name, match: node.parameters.matchType, newer: conditions.find((c) => c.keyName === 'updated_ms') }).toEqual({
				node: node.name,
				match: 'allConditions',
				newer: { keyName: 'updated_ms', condition: 'lt', keyValue: '={{ $json.updated_ms }}' },
			});
		}
	});

	it('sync-webhooks does not rely on Drop Repeated Deliveries', () => {
		const trigger = load('sync-webhooks.json').nodes.find((node) => node.type === 'n8n-nodes-support-ticket.supportTicketTrigger');
		expect(trigger?.parameters.options).toEqual({ dropDuplicates: false });
	});

	it('Plan Ticket Writes: inserts what is missing, updates what is older, leaves equal or newer rows, merges second rows into the first', () => {
		const code = String(load('sync-webhooks.json').nodes.find((node) => node.name === 'Plan Ticket Writes')?.parameters.jsCode);
		const service = [ticket('tkt_1', '2026-02-01T00:00:00.000Z'), ticket('tkt_2', '2026-02-01T00:00:00.000Z'), ticket('tkt_3', '2026-02-01T00:00:00.000Z'), ticket('tkt_4', '2026-02-01T00:00:00.000Z')];
		const stored = [
			row(10, 'tkt_2', '2026-01-15T00:00:00.000Z'), // older: update
			row(11, 'tkt_3', '2026-02-01T00:00:00.000Z'), // equal: nothing
			row(12, 'tkt_4', '2026-03-01T00:00:00.000Z'), // newer (a late delivery read before): nothing
			row(13, 'tkt_3', '2026-02-01T00:00:00.000Z'), // second row for tkt_3: removed
		];
		const decisions = runPlan(code, { 'Get Ticket': service }, stored);
		expect(decisions.map((d) => [d.action, d.ticket_id, d.row_id])).toEqual([
			['summary', undefined, undefined],
			['insert', 'tkt_1', undefined],
			['update', 'tkt_2', undefined],
			['dedupe', 'tkt_3', 13],
		]);
		expect(decisions[2]).toMatchObject({ subject: 'S', customer_id: 'cus_1', updated_at: '2026-02-01T00:00:00.000Z', updated_ms: Date.parse('2026-02-01T00:00:00.000Z') });
	});

	it.each(['sync-initial-import.json', 'sync-webhooks.json', 'sync-reconcile.json'])(
		'%s: two rows for one id, the later one newer than what was just read: the newest state goes into the first row, the later row is removed',
		(file) => {
			const workflow = load(file);
			const code = String(workflow.nodes.find((node) => node.name === 'Plan Ticket Writes')?.parameters.jsCode);
			const read = ticket('tkt_5', '2026-02-01T00:00:00.000Z', 'read late');
			const newer = { ...row(21, 'tkt_5', '2026-03-01T00:00:00.000Z'), subject: 'newest', description: 'd', status: 'open', priority: 'normal', customer_id: 'cus_1', created_at: '2026-01-01T00:00:00.000Z' };
			const nodes: Record<string, Json[]> = {
				'Get Ticket': [read],
				'One Item per Ticket': [read],
				'Read Watermark': [{}],
				'Get Page of Changed Tickets': [{ data: [read], has_more: false, next_cursor: null }],
			};
			const decisions = runPlan(code, nodes, [newer, row(20, 'tkt_5', '2026-01-15T00:00:00.000Z')]).filter((d) => d.action !== 'summary');
			expect(decisions).toEqual([
				{ action: 'update', ticket_id: 'tkt_5', subject: 'newest', description: 'd', status: 'open', priority: 'normal', customer_id: 'cus_1', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-03-01T00:00:00.000Z', updated_ms: Date.parse('2026-03-01T00:00:00.000Z') },
				{ action: 'dedupe', ticket_id: 'tkt_5', row_id: 21 },
			]);
		},
	);

	it('Plan Ticket Writes: nothing stored yet ("Always Output Data" sends one empty item) means insert', () => {
		const code = String(load('sync-initial-import.json').nodes.find((node) => node.name === 'Plan Ticket Writes')?.parameters.jsCode);
		const decisions = runPlan(code, { 'One Item per Ticket': [ticket('tkt_9', '2026-02-01T00:00:00.000Z')] }, [{}]);
		expect(decisions.map((d) => d.action)).toEqual(['summary', 'insert']);
	});

	it.each(['sync-initial-import.json', 'sync-webhooks.json', 'sync-reconcile.json'])('%s: a customer without a name is written with name null, not an empty name', (file) => {
		const code = String(load(file).nodes.find((node) => node.name === 'Plan Customer Writes')?.parameters.jsCode);
		const customer = { id: 'cus_7', email: 'a@example.com', name: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' };
		const decisions = runPlan(code, { 'Get Customer': [customer], 'Get All Customers': [customer] }, [{}]);
		expect(decisions.filter((d) => d.action === 'insert')).toEqual([{ action: 'insert', customer_id: 'cus_7', email: 'a@example.com', name: null, created_at: customer.created_at, updated_at: customer.updated_at, updated_ms: Date.parse(customer.updated_at) }]);
	});

	it('sync-reconcile sweeps the whole ticket table once per run: every id with two rows is merged into its first row, whatever its updated_at', () => {
		const workflow = load('sync-reconcile.json');
		expect(workflow.connections['More Changed Tickets?'].main[1]?.map((c) => c.node)).toEqual(['All Ticket Rows']);
		expect(workflow.connections['All Ticket Rows'].main[0]?.map((c) => c.node)).toEqual(['Plan Duplicate Sweep']);
		expect(workflow.connections['Plan Duplicate Sweep'].main[0]?.map((c) => c.node)).toEqual(['Route Ticket Writes', 'Get All Customers']);
		const all = workflow.nodes.find((node) => node.name === 'All Ticket Rows');
		expect(all).toMatchObject({ executeOnce: true, alwaysOutputData: true, parameters: { operation: 'get', returnAll: true } });
		expect(all?.parameters.filters).toBeUndefined();
		const code = String(workflow.nodes.find((node) => node.name === 'Plan Duplicate Sweep')?.parameters.jsCode);
		const old = '2020-01-01T00:00:00.000Z';
		const stale = { ...row(31, 'tkt_8', '2019-12-01T00:00:00.000Z'), subject: 'stale' };
		const decisions = runPlan(code, {}, [row(1, 'tkt_1', old), stale, { ...row(40, 'tkt_8', old), subject: 'kept' }, row(2, 'tkt_2', old), row(50, 'tkt_2', old), row(60, 'tkt_2', old)]);
		expect(decisions.slice(1).map((d) => [d.action, d.ticket_id, d.row_id ?? d.subject])).toEqual([
			['update', 'tkt_8', 'kept'],
			['dedupe', 'tkt_8', 40],
			['dedupe', 'tkt_2', 50],
			['dedupe', 'tkt_2', 60],
		]);
		expect(runPlan(code, {}, [{}]).map((d) => d.action)).toEqual(['summary']);
	});

	it.each(['sync-initial-import.json', 'sync-webhooks.json', 'sync-reconcile.json', 'sync-by-polling.json', 'incremental-import.json'])('%s chooses every Data Table by ID, never By Name (n8n matches a name as a substring, newest table first)', (file) => {
		const tables = load(file)
			.nodes.filter((node) => node.parameters.dataTableId !== undefined)
			.map((node) => ({ node: node.name, mode: (node.parameters.dataTableId as Json).mode }));
		expect(tables.length).toBeGreaterThan(3);
		expect(tables.filter((t) => t.mode !== 'id')).toEqual([]);
	});

	it.each(['sync-webhooks.json', 'sync-reconcile.json'])('%s finds its tables by exact name in one list call', (file) => {
		const workflow = load(file);
		const expressions = workflow.nodes.filter((node) => node.parameters.dataTableId !== undefined).map((node) => String((node.parameters.dataTableId as Json).value));
		for (const expression of expressions) expect(expression).toMatch(/^=\{\{ \$\('Find Tables'\)\.all\(\)\.find\(\(t\) => t\.json\.name === 'st_(tickets|customers|state)'\)\?\.json\.id /);
		const find = workflow.nodes.find((node) => node.name === 'Find Tables');
		expect(find?.parameters).toMatchObject({ resource: 'table', operation: 'list', returnAll: true });
		const tables = [{ id: 'a', name: 'st_tickets_old' }, { id: 'b', name: 'st_tickets' }, { id: 'c', name: 'test_tickets' }];
		const resolve = new Function('$', `return ${expressions.find((e) => e.includes("'st_tickets'"))?.slice(4, -3)};`) as (s: unknown) => unknown;
		expect(resolve(() => ({ all: () => tables.map((json) => ({ json })) }))).toBe('b');
	});

	it.each(['sync-webhooks.json', 'sync-reconcile.json'])('%s: the insert of a missing row only overwrites a row of the same or an older state (two executions that both found none)', (file) => {
		const workflow = load(file);
		for (const [name, key] of [
			['Insert New Ticket', 'ticket_id'],
			['Insert New Customer', 'customer_id'],
		]) {
			const node = workflow.nodes.find((n) => n.name === name);
			expect({ name, operation: node?.parameters.operation, match: node?.parameters.matchType, conditions: (node?.parameters.filters as { conditions: Json[] }).conditions }).toEqual({
				name,
				operation: 'upsert',
				match: 'allConditions',
				conditions: [
					{ keyName: key, condition: 'eq', keyValue: `={{ $json.${key} }}` },
					{ keyName: 'updated_ms', condition: 'lte', keyValue: '={{ $json.updated_ms }}' },
				],
			});
		}
	});

	it.each(['sync-initial-import.json', 'sync-webhooks.json', 'sync-reconcile.json'])('%s removes a second row by its row id only (a row it did not see is never removed)', (file) => {
		const removals = load(file).nodes.filter((node) => node.name.startsWith('Remove Duplicate'));
		expect(removals).toHaveLength(2);
		for (const node of removals) {
			const conditions = (node.parameters.filters as { conditions: Json[] }).conditions;
			expect(node.parameters.matchType).toBe('allConditions');
			expect(conditions[1]).toEqual({ keyName: 'id', condition: 'eq', keyValue: '={{ $json.row_id }}' });
		}
	});

	it('incremental-import: the tickets at the watermark come again and are not written twice; a new one in the same millisecond is inserted', () => {
		const code = String(load('incremental-import.json').nodes.find((node) => node.name === 'Plan Ticket Writes')?.parameters.jsCode);
		const atWatermark = ticket('tkt_1', '2026-02-01T00:00:00.000Z');
		const sameMillisecond = ticket('tkt_2', '2026-02-01T00:00:00.000Z');
		const decisions = runPlan(code, { 'Get New Tickets': [sameMillisecond, atWatermark] }, [row(10, 'tkt_1', '2026-02-01T00:00:00.000Z')]);
		expect(decisions.map((d) => [d.action, d.ticket_id])).toEqual([
			['summary', undefined],
			['insert', 'tkt_2'],
		]);
	});

	it('incremental-import saves the watermark only after the writes, from the newest ticket read', () => {
		const workflow = load('incremental-import.json');
		const outgoing = workflow.connections['Plan Ticket Writes'].main[0]?.map((c) => c.node);
		expect(outgoing).toEqual(['Route Ticket Writes', 'Save Watermark']);
		const position = (name: string) => workflow.nodes.find((node) => node.name === name)?.position ?? [0, 0];
		// Execution order v1 runs the upper branch (the writes) first.
		expect(position('Route Ticket Writes')[1]).toBeLessThan(position('Save Watermark')[1]);
		const save = workflow.nodes.find((node) => node.name === 'Save Watermark');
		expect((save?.parameters.columns as { value: Json }).value).toEqual({ key: 'incremental_created_after', value: "={{ $('Get New Tickets').first().json.created_at }}" });
	});
});
