// The sync examples' own rules, read from their JSON. What their Plan … Writes Code nodes decide is proven in real n8n:
// `npm run test:sync` (test/e2e/sync/) and `npm run test:e2e` (planCases.tsx, the orders the proof cannot force).
import { load } from './postgresExamples';

// incremental-import and large-account-import write into the same st_tickets table (a stored row only by a newer state).
const SYNC_FILES = [
	'sync-initial-import.json',
	'sync-webhooks.json',
	'sync-reconcile.json',
	'incremental-import.json',
	'large-account-import.json',
];
// Sync 1, 2 and 3: each write is planned by a Code node (Plan … Writes).
const PLANNED_FILES = ['sync-initial-import.json', 'sync-webhooks.json', 'sync-reconcile.json'];

type Json = Record<string, unknown>;

describe('sync examples', () => {
	// Sync 1, 2 and 3 plan with one rule that also writes a tie (the same updated_ms, other fields); the two imports that
	// compare otherwise write only a newer state, and leave a tie to the reconcile.
	it.each(
		SYNC_FILES.map((file) =>
			PLANNED_FILES.includes(file)
				? { file, condition: 'lte', is: 'at most' }
				: { file, condition: 'lt', is: 'below' },
		),
	)(
		'$file: every "If Newer" update writes only where the stored updated_ms is $is the new one',
		({ file, condition }) => {
			const updates = load(file).nodes.filter((node) => node.name.endsWith('If Newer'));
			expect(updates.length).toBeGreaterThan(0);
			for (const node of updates) {
				const conditions = (node.parameters.filters as { conditions: Json[] }).conditions;
				expect({
					node: node.name,
					match: node.parameters.matchType,
					newer: conditions.find((c) => c.keyName === 'updated_ms'),
				}).toEqual({
					node: node.name,
					match: 'allConditions',
					newer: { keyName: 'updated_ms', condition, keyValue: '={{ $json.updated_ms }}' },
				});
			}
		},
	);

	it('Sync 1, 2 and 3 decide every write with the very same rule (one merge in each Plan … Writes and the duplicate sweep)', () => {
		const merges = PLANNED_FILES.flatMap((file) =>
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

	it('sync-webhooks does not rely on Drop Repeated Deliveries', () => {
		const trigger = load('sync-webhooks.json').nodes.find(
			(node) => node.type === 'n8n-nodes-support-ticket.supportTicketTrigger',
		);
		expect(trigger?.parameters.options).toEqual({ dropDuplicates: false });
	});

	it.each(['sync-webhooks.json', 'sync-reconcile.json'])(
		'%s finds its tables by exact name in one list call',
		(file) => {
			const workflow = load(file);
			const expressions = workflow.nodes
				.filter((node) => node.parameters.dataTableId !== undefined)
				.map((node) => String((node.parameters.dataTableId as Json).value));
			for (const expression of expressions)
				expect(expression).toMatch(
					/^=\{\{ \$\('Find Tables'\)\.all\(\)\.find\(\(t\) => t\.json\.name === 'st_(tickets|customers|state)'\)\?\.json\.id /,
				);
			const find = workflow.nodes.find((node) => node.name === 'Find Tables');
			expect(find?.parameters).toMatchObject({
				resource: 'table',
				operation: 'list',
				returnAll: true,
			});
		},
	);

	it.each(['sync-webhooks.json', 'sync-reconcile.json'])(
		'%s: the insert of a missing row only overwrites a row of the same or an older state (two executions that both found none)',
		(file) => {
			const workflow = load(file);
			for (const [name, key] of [
				['Insert New Ticket', 'ticket_id'],
				['Insert New Customer', 'customer_id'],
			]) {
				const node = workflow.nodes.find((n) => n.name === name);
				expect({
					name,
					operation: node?.parameters.operation,
					match: node?.parameters.matchType,
					conditions: (node?.parameters.filters as { conditions: Json[] }).conditions,
				}).toEqual({
					name,
					operation: 'upsert',
					match: 'allConditions',
					conditions: [
						{ keyName: key, condition: 'eq', keyValue: `={{ $json.${key} }}` },
						{ keyName: 'updated_ms', condition: 'lte', keyValue: '={{ $json.updated_ms }}' },
					],
				});
			}
		},
	);

	it.each(['sync-initial-import.json', 'sync-webhooks.json', 'sync-reconcile.json'])(
		'%s removes a second row by its row id only (a row it did not see is never removed)',
		(file) => {
			const removals = load(file).nodes.filter((node) => node.name.startsWith('Remove Duplicate'));
			expect(removals).toHaveLength(2);
			for (const node of removals) {
				const conditions = (node.parameters.filters as { conditions: Json[] }).conditions;
				expect(node.parameters.matchType).toBe('allConditions');
				expect(conditions[1]).toEqual({
					keyName: 'id',
					condition: 'eq',
					keyValue: '={{ $json.row_id }}',
				});
			}
		},
	);
});
