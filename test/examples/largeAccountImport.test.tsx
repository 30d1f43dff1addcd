// examples/large-account-import.json without n8n (in real n8n: `npm run test:sync -- --proof large-import`): one page
// per execution, the next started without waiting, successes not saved, the cursor in a Data Table, Sync 1's rows.
import type { WorkflowJson } from '../harness';
import { evaluate, load, named } from './postgresExamples';

type Json = Record<string, unknown>;

const workflow = load('large-account-import.json');
const sync1 = load('sync-initial-import.json');
/** Names of the nodes an output of `from` leads to. */
const next = (from: string, output = 0): string[] =>
	(workflow.connections[from]?.main[output] ?? []).map((c) => c.node);
/** Every node reachable from `from`. */
function reachable(from: string): Set<string> {
	const seen = new Set<string>();
	const walk = (name: string) => {
		for (const output of workflow.connections[name]?.main ?? []) {
			for (const c of output ?? []) {
				if (seen.has(c.node)) continue;
				seen.add(c.node);
				walk(c.node);
			}
		}
	};
	walk(from);
	return seen;
}
const columns = (wf: WorkflowJson, table: string) => named(wf, `Table ${table}`).parameters.columns;

describe('examples/large-account-import.json (Data Tables, one page per execution)', () => {
	it('starts by hand or as its own sub-workflow, calls itself for the next page without waiting, and does not save successful executions', () => {
		expect(named(workflow, 'Start Import').type).toBe('n8n-nodes-base.manualTrigger');
		expect(named(workflow, 'Next Page')).toMatchObject({
			type: 'n8n-nodes-base.executeWorkflowTrigger',
			parameters: { inputSource: 'passthrough' },
		});
		expect(next('Start Import')).toEqual(['Table st_tickets']);
		expect(next('Next Page')).toEqual(['Table st_tickets']);
		const call = named(workflow, 'Import Next Page');
		expect(call.type).toBe('n8n-nodes-base.executeWorkflow');
		expect(call.parameters).toMatchObject({
			source: 'database',
			mode: 'once',
			workflowId: { value: '={{ $workflow.id }}' },
			options: { waitForSubWorkflow: false },
		});
		expect(next('More Pages?', 0)).toEqual(['Import Next Page']);
		const more = (named(workflow, 'More Pages?').parameters.conditions as { conditions: Json[] })
			.conditions;
		expect(more).toEqual([
			expect.objectContaining({
				leftValue: '={{ $json.value }}',
				rightValue: 'done',
				operator: { type: 'string', operation: 'notEquals' },
			}),
		]);
		expect(next('More Pages?', 1)).toEqual([]);
		// Successful executions are not saved, failed ones are; branches run in order (v1).
		expect(workflow.settings).toMatchObject({
			executionOrder: 'v1',
			saveDataSuccessExecution: 'none',
			saveDataErrorExecution: 'all',
		});
	});

	it('reads exactly one page per execution: every list node is One Page per Run, 100 per page, and no node pages on its own', () => {
		const lists = workflow.nodes.filter((n) => n.type === 'n8n-nodes-support-ticket.supportTicket');
		expect(
			lists.map((n) => [
				n.name,
				n.parameters.resource,
				n.parameters.operation,
				n.parameters.pagination,
				n.parameters.pageSize,
			]),
		).toEqual([
			['Get Page of Tickets', 'ticket', 'getAll', 'onePage', 100],
			['Get Page of Customers', 'customer', 'getAll', 'onePage', 100],
		]);
		// Each list node runs at most once per execution: nothing leads back into it.
		for (const list of lists) expect(reachable(list.name).has(list.name)).toBe(false);
		expect([0, 1, 2].map((output) => next('Tickets or Customers?', output))).toEqual([
			['Get Page of Tickets'],
			['Get Page of Customers'],
			[],
		]);
		const route = String(named(workflow, 'Tickets or Customers?').parameters.output);
		expect(
			['tickets:', 'tickets:c2', 'customers:', 'customers:k2', 'done'].map((value) =>
				evaluate(route, { value }),
			),
		).toEqual([0, 0, 1, 1, 2]);
	});

	it('creates the tables of Sync 1 (same columns) and picks every table from the Table … nodes', () => {
		for (const table of ['st_tickets', 'st_customers', 'st_state']) {
			expect({ table, columns: columns(workflow, table) }).toEqual({
				table,
				columns: columns(sync1, table),
			});
			expect(named(workflow, `Table ${table}`).parameters).toMatchObject({
				resource: 'table',
				operation: 'create',
				tableName: table,
				options: { createIfNotExists: true },
			});
		}
		for (const node of workflow.nodes.filter(
			(n) => n.type === 'n8n-nodes-base.dataTable' && n.parameters.resource === 'row',
		)) {
			expect({ node: node.name, table: node.parameters.dataTableId }).toEqual({
				node: node.name,
				table: {
					__rl: true,
					mode: 'id',
					value: expect.stringMatching(
						/^=\{\{ \$\('Table st_(tickets|customers|state)'\)\.first\(\)\.json\.id \}\}$/,
					),
				},
			});
		}
	});

	it('writes rows of the shape Sync 1 writes (mapped in one expression per page, a missing value null), inserts only new ids and updates only where the stored row is older', () => {
		const page = {
			data: [
				{
					id: 'tkt_1',
					subject: 'S',
					description: null,
					status: 'open',
					priority: 'normal',
					customer: { id: 'cus_1' },
					created_at: '2026-01-02T00:00:00.000Z',
					updated_at: '2026-01-03T00:00:00.000Z',
				},
				{
					id: 'cus_1',
					email: 'a@example.com',
					name: null,
					created_at: '2026-01-01T00:00:00.000Z',
					updated_at: '2026-01-04T00:00:00.000Z',
				},
			],
		};
		for (const [kind, key] of [
			['Ticket', 'ticket_id'],
			['Customer', 'customer_id'],
		] as const) {
			const table = kind === 'Ticket' ? 'st_tickets' : 'st_customers';
			const wanted = ((columns(sync1, table) as { column: Array<{ name: string }> }).column ?? [])
				.map((c) => c.name)
				.sort();
			const rowsNode = named(workflow, `${kind} Rows of This Page`);
			expect(next(`Get Page of ${kind}s`)[0]).toBe(rowsNode.name);
			expect(next(rowsNode.name)).toEqual([`One Item per ${kind}`]);
			expect(named(workflow, `One Item per ${kind}`).parameters.fieldToSplitOut).toBe('rows');
			const [assignment] = (rowsNode.parameters.assignments as { assignments: Json[] }).assignments;
			expect({ name: assignment.name, type: assignment.type }).toEqual({
				name: 'rows',
				type: 'array',
			});
			const rows = evaluate(String(assignment.value), page) as Json[];
			const row = rows[kind === 'Ticket' ? 0 : 1];
			expect(Object.keys(row).sort()).toEqual(wanted);
			expect(row[key]).toBe(kind === 'Ticket' ? 'tkt_1' : 'cus_1');
			expect(row.updated_ms).toBe(
				Date.parse(kind === 'Ticket' ? '2026-01-03T00:00:00.000Z' : '2026-01-04T00:00:00.000Z'),
			);
			expect(kind === 'Ticket' ? [row.description, row.customer_id] : [row.name]).toEqual(
				kind === 'Ticket' ? [null, 'cus_1'] : [null],
			);

			const compare = named(workflow, `Compare with Stored ${kind}s`);
			expect(compare.parameters).toMatchObject({
				mergeByFields: { values: [{ field1: key, field2: key }] },
				resolve: 'preferInput1',
				options: { skipFields: 'id,createdAt,updatedAt' },
			});
			// Compare Datasets outputs: In A only, Same, Different, In B only.
			expect([0, 1, 2, 3].map((output) => next(compare.name, output))).toEqual([
				[`Insert New ${kind}s`],
				[],
				[`Update ${kind} If Newer`],
				[],
			]);
			for (const name of [`Insert New ${kind}s`, `Update ${kind} If Newer`]) {
				const mapping = named(workflow, name).parameters.columns as {
					mappingMode: string;
					schema: Array<{ id: string }>;
				};
				expect({
					name,
					mode: mapping.mappingMode,
					columns: mapping.schema.map((c) => c.id).sort(),
				}).toEqual({ name, mode: 'autoMapInputData', columns: wanted });
			}
			// The stored rows of the page's created_at range go into Compare's input B.
			expect(next(`One Item per ${kind}`)).toEqual([
				`Stored ${kind} Rows of This Page`,
				`Compare with Stored ${kind}s`,
			]);
			expect(workflow.connections[`Stored ${kind} Rows of This Page`].main[0]).toEqual([
				{ node: `Compare with Stored ${kind}s`, type: 'main', index: 1 },
			]);
		}
	});

	it('starts at the first ticket page when st_state has no position yet, or when started by hand after done (before reading it)', () => {
		expect(next('Table st_state')).toEqual([
			'Position Row Missing?',
			'Start Over If Done',
			'Read Position',
		]);
		const y = (name: string) => named(workflow, name).position[1];
		expect(y('Position Row Missing?')).toBeLessThan(y('Start Over If Done'));
		expect(y('Start Over If Done')).toBeLessThan(y('Read Position'));
		const startOver = named(workflow, 'Start Over If Done').parameters;
		expect(startOver.operation).toBe('update');
		expect((startOver.columns as { value: Json }).value).toEqual({
			key: 'large_import_position',
			value: 'tickets:',
		});
		const [keyFilter, valueFilter] = (startOver.filters as { conditions: Json[] }).conditions;
		expect(keyFilter).toEqual({
			keyName: 'key',
			condition: 'eq',
			keyValue: 'large_import_position',
		});
		// Only a run started by hand starts over; the next-page executions never match.
		const matched = (byHand: boolean) =>
			evaluate(valueFilter.keyValue, {}, byHand ? { 'Start Import': [{}] } : {});
		expect([matched(true), matched(false) === 'done']).toEqual(['done', false]);
		expect(next('Position Row Missing?')).toEqual(['Start at the First Page']);
		expect(
			(named(workflow, 'Start at the First Page').parameters.columns as { value: Json }).value,
		).toEqual({ key: 'large_import_position', value: 'tickets:' });
	});

	it('saves the position in st_state after the page is written (lower branch), only from the position it started from: tickets, then customers, then done', () => {
		for (const kind of ['Ticket', 'Customer']) {
			const page = named(workflow, `Get Page of ${kind}s`);
			const save = named(workflow, `Save ${kind} Position`);
			const split = named(workflow, `${kind} Rows of This Page`);
			expect(next(page.name)).toEqual([split.name, save.name]);
			// n8n's v1 order runs the upper branch (the writes) to its end before the lower one.
			expect(split.position[1]).toBeLessThan(save.position[1]);
			// An update where the value is still the one read: a second run started by mistake moves nothing and stops.
			expect(save.parameters).toMatchObject({ operation: 'update', matchType: 'allConditions' });
			expect((save.parameters.filters as { conditions: Json[] }).conditions).toEqual([
				{ keyName: 'key', condition: 'eq', keyValue: 'large_import_position' },
				{
					keyName: 'value',
					condition: 'eq',
					keyValue: "={{ $('Read Position').first().json.value }}",
				},
			]);
			expect(next(save.name)).toEqual(['More Pages?']);
		}
		const saved = (kind: string) =>
			String(
				(named(workflow, `Save ${kind} Position`).parameters.columns as { value: Json }).value
					.value,
			);
		expect(evaluate(saved('Ticket'), { has_more: true, next_cursor: 'c2' })).toBe('tickets:c2');
		expect(evaluate(saved('Ticket'), { has_more: false, next_cursor: null })).toBe('customers:');
		expect(evaluate(saved('Customer'), { has_more: true, next_cursor: 'k2' })).toBe('customers:k2');
		expect(evaluate(saved('Customer'), { has_more: false, next_cursor: null })).toBe('done');
		const cursor = (kind: string) =>
			String(named(workflow, `Get Page of ${kind}s`).parameters.cursor);
		expect(
			['tickets:', 'tickets:c2'].map((value) => evaluate(cursor('Ticket'), { value })),
		).toEqual(['', 'c2']);
		expect(
			['customers:', 'customers:k2'].map((value) => evaluate(cursor('Customer'), { value })),
		).toEqual(['', 'k2']);
	});
});
