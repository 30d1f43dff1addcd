// examples/large-account-import.json without n8n (in real n8n: `npm run test:sync -- --proof large-import`): one page
// per execution, the next started without waiting, successes not saved, the position in st_state, Sync 1's rows.
import {
	CUSTOMER_ROW,
	evaluate,
	load,
	named,
	SERVICE_CUSTOMER,
	SERVICE_TICKET,
	TICKET_ROW,
} from './postgresExamples';

type Json = Record<string, unknown>;

const workflow = load('large-account-import.json');
const sync1 = load('sync-initial-import.json');
const next = (from: string, output = 0): string[] =>
	(workflow.connections[from]?.main[output] ?? []).map((c) => c.node);
const parameter = (node: string, path: string[]) =>
	path.reduce<unknown>((value, key) => (value as Json)[key], named(workflow, node).parameters);
const columns = (table: string) =>
	(
		(named(sync1, `Table ${table}`).parameters.columns as { column: Array<{ name: string }> })
			.column ?? []
	)
		.map((c) => c.name)
		.sort();

describe('examples/large-account-import.json (Data Tables) and its PostgreSQL edition', () => {
	it.each([
		['large-account-import.json', {}],
		['large-account-import-postgres.json', { cursor: '={{ $json.cursor }}', pagesPerRun: 20 }],
	])(
		'%s reads pages of 100 per execution and calls itself for the next without waiting; successful executions are not saved',
		(file, pages) => {
			const example = load(file);
			for (const resource of ['ticket', 'customer'])
				expect(
					named(example, `Get Page of ${resource === 'ticket' ? 'Tickets' : 'Customers'}`)
						.parameters,
				).toMatchObject({
					resource,
					operation: 'getAll',
					pagination: 'onePage',
					pageSize: 100,
					...pages,
				});
			expect(named(example, 'Import Next Page').parameters).toMatchObject({
				source: 'database',
				mode: 'once',
				workflowId: { __rl: true, mode: 'id', value: '={{ $workflow.id }}' },
				options: { waitForSubWorkflow: false },
			});
			const more = example.connections['More Pages?'].main.flat();
			expect(more.map((c) => c?.node)).toEqual(['Import Next Page']);
			expect(example.settings).toMatchObject({
				executionOrder: 'v1',
				saveDataSuccessExecution: 'none',
				saveDataErrorExecution: 'all',
			});
		},
	);

	it('the position in st_state: tickets, then customers, then done, saved after the page is written and only from the position read; started by hand after done it starts over', () => {
		expect(next('Next Page')).toEqual(['Table st_tickets']);
		const route = String(parameter('Tickets or Customers?', ['output']));
		expect(
			['tickets:', 'tickets:c2', 'customers:', 'customers:k2', 'done'].map((value) =>
				evaluate(route, { value }),
			),
		).toEqual([0, 0, 1, 1, 2]);
		for (const [kind, resource, after] of [
			['Ticket', 'tickets', 'customers:'],
			['Customer', 'customers', 'done'],
		]) {
			const save = `Save ${kind} Position`;
			const saved = String(parameter(save, ['columns', 'value', 'value']));
			expect(evaluate(saved, { has_more: true, next_cursor: 'c2' })).toBe(`${resource}:c2`);
			expect(evaluate(saved, { has_more: false, next_cursor: null })).toBe(after);
			const cursor = String(parameter(`Get Page of ${kind}s`, ['cursor']));
			expect(evaluate(cursor, { value: `${resource}:c2` })).toBe('c2');
			// n8n's v1 order runs the upper branch (the writes) to its end before the save.
			expect(next(`Get Page of ${kind}s`)).toEqual([`${kind} Rows of This Page`, save]);
			expect(named(workflow, `${kind} Rows of This Page`).position[1]).toBeLessThan(
				named(workflow, save).position[1],
			);
			expect((parameter(save, ['filters', 'conditions']) as Json[])[1]).toEqual({
				keyName: 'value',
				condition: 'eq',
				keyValue: "={{ $('Read Position').first().json.value }}",
			});
		}
		const [, startOver] = parameter('Start Over If Done', ['filters', 'conditions']) as Json[];
		const matched = (byHand: boolean) =>
			evaluate(startOver.keyValue, {}, byHand ? { 'Start Import': [{}] } : {});
		expect([matched(true), matched(false) === 'done']).toEqual(['done', false]);
		expect(parameter('Start Over If Done', ['columns', 'value', 'value'])).toBe('tickets:');
	});

	it("writes Sync 1's rows: every column, a missing value null; new ids inserted, a stored row updated only when older", () => {
		// A ticket without a description, a customer without a name.
		const page = { data: [SERVICE_TICKET, { ...SERVICE_CUSTOMER, name: undefined }] };
		for (const [kind, table, index, expected] of [
			['Ticket', 'st_tickets', 0, TICKET_ROW],
			['Customer', 'st_customers', 1, CUSTOMER_ROW],
		] as const) {
			const [assignment] = parameter(`${kind} Rows of This Page`, [
				'assignments',
				'assignments',
			]) as Json[];
			const row = (evaluate(String(assignment.value), page) as Json[])[index];
			expect(Object.keys(row).sort()).toEqual(columns(table));
			expect(row).toEqual(expected);
			// Compare Datasets outputs: In A only, Same, Different, In B only.
			expect([0, 1, 2, 3].map((output) => next(`Compare with Stored ${kind}s`, output))).toEqual([
				[`Insert New ${kind}s`],
				[],
				[`Update ${kind} If Newer`],
				[],
			]);
		}
	});
});
