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

	it('Plan Ticket Writes: inserts what is missing, updates what is older, leaves equal or newer rows, removes second rows', () => {
		const code = String(load('sync-webhooks.json').nodes.find((node) => node.name === 'Plan Ticket Writes')?.parameters.jsCode);
		const service = [ticket('tkt_1', '2026-02-01T00:00:00.000Z'), ticket('tkt_2', '2026-02-01T00:00:00.000Z'), ticket('tkt_3', '2026-02-01T00:00:00.000Z'), ticket('tkt_4', '2026-02-01T00:00:00.000Z')];
		const stored = [
			row(10, 'tkt_2', '2026-01-15T00:00:00.000Z'), // older: update
			row(11, 'tkt_3', '2026-02-01T00:00:00.000Z'), // equal: nothing
			row(12, 'tkt_4', '2026-03-01T00:00:00.000Z'), // newer (a late delivery read before): nothing
			row(13, 'tkt_3', '2026-02-01T00:00:00.000Z'), // second row for tkt_3: removed
		];
		const decisions = runPlan(code, { 'Get Ticket': service }, stored);
		expect(decisions.map((d) => [d.action, d.ticket_id, d.keep_id])).toEqual([
			['summary', undefined, undefined],
			['insert', 'tkt_1', undefined],
			['update', 'tkt_2', undefined],
			['dedupe', 'tkt_3', 11],
		]);
		expect(decisions[2]).toMatchObject({ subject: 'S', customer_id: 'cus_1', updated_at: '2026-02-01T00:00:00.000Z', updated_ms: Date.parse('2026-02-01T00:00:00.000Z') });
	});

	it('Plan Ticket Writes: nothing stored yet ("Always Output Data" sends one empty item) means insert', () => {
		const code = String(load('sync-initial-import.json').nodes.find((node) => node.name === 'Plan Ticket Writes')?.parameters.jsCode);
		const decisions = runPlan(code, { 'One Item per Ticket': [ticket('tkt_9', '2026-02-01T00:00:00.000Z')] }, [{}]);
		expect(decisions.map((d) => d.action)).toEqual(['summary', 'insert']);
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
