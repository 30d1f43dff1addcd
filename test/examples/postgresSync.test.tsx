// The PostgreSQL editions of Sync 1, 2 and 3 (large-account-import-postgres, sync-webhooks-postgres, sync-reconcile-postgres)
// without PostgreSQL: what their expressions bind and decide, and the one upsert they share. In real n8n, a stop part-way and
// its resume included: `npm run test:sync -- --proof webhooks-postgres` (in CI's set).
import type { IDataObject } from 'n8n-workflow';

import {
	CUSTOMER_ROW,
	evaluate,
	EXECUTION_ID,
	expectedUpsert,
	load,
	named,
	pollingTables,
	queryParameters,
	SERVICE_CUSTOMER,
	SERVICE_TICKET,
	TICKET_ROW,
} from './postgresExamples';

const importer = load('large-account-import-postgres.json');
const webhooks = load('sync-webhooks-postgres.json');
const reconcile = load('sync-reconcile-postgres.json');
const tables = pollingTables();
const ROUTE = 'Tickets or Customers?';
const page = (data: IDataObject[], next: string | null): IDataObject => ({
	data,
	count: data.length,
	has_more: next !== null,
	next_cursor: next,
});
const condition = (workflow: typeof importer, name: string) =>
	(named(workflow, name).parameters.conditions as { conditions: Array<{ leftValue: string }> })
		.conditions[0].leftValue;
/** What the import hands from one page to the next: the position of its chain and the run. */
const handed = (resource: string, next: string | null) => ({
	[ROUTE]: [{ resource, cursor: 'c1', position: `${resource}:c1`, run: '12', lane: 0 }],
	[`Next ${resource === 'tickets' ? 'Ticket' : 'Customer'} Position`]: [
		{ position: next === null ? 'done' : `${resource}:${next}`, run: '12' },
	],
});

describe('the PostgreSQL sync examples', () => {
	it('create the tables of sync-by-polling-postgres if missing: the polling, webhook, reconcile and import workflows share one copy', () => {
		for (const [workflow, node] of [
			[importer, 'Create Tables, Read Position'],
			[reconcile, 'Read Watermark'],
		] as const) {
			const statements = String(named(workflow, node).parameters.query).split('\n');
			for (const create of tables.createStatements) expect(statements).toContain(create);
		}
	});

	it.each([
		['Upsert Ticket If Not Older', webhooks, SERVICE_TICKET, {}],
		['Upsert Customer If Not Older', webhooks, SERVICE_CUSTOMER, {}],
		['Write Changed Tickets', reconcile, page([SERVICE_TICKET], null), {}],
		['Write Customers', reconcile, page([SERVICE_CUSTOMER], null), {}],
		[
			'Write Ticket Page, Save Position',
			importer,
			page([SERVICE_TICKET], null),
			handed('tickets', null),
		],
		[
			'Write Customer Page, Save Position',
			importer,
			page([SERVICE_CUSTOMER], null),
			handed('customers', null),
		],
	] as const)(
		'%s writes every record in the one newer-only upsert, every column, a missing value null',
		(name, workflow, input, outputs) => {
			const node = named(workflow, name);
			const table = name.includes('Ticket') ? tables.tickets : tables.customers;
			expect(String(node.parameters.query)).toContain(expectedUpsert(table));
			const rows = JSON.parse(String(queryParameters(node, input, outputs)[0])) as IDataObject[];
			expect(rows).toEqual([table === tables.tickets ? TICKET_ROW : CUSTOMER_ROW]);
			// Named like the columns, in their order: json_populate_recordset puts each value in its column.
			expect(Object.keys(rows[0])).toEqual(table.columns);
		},
	);

	it('sync-webhooks-postgres: the trigger and reads of the Data Table edition under its own webhook URL, no Code node', () => {
		const dataTables = load('sync-webhooks.json');
		for (const name of ['On Any Change', 'Ticket or Customer?', 'Get Ticket', 'Get Customer'])
			expect(named(webhooks, name).parameters).toEqual(named(dataTables, name).parameters);
		expect(named(webhooks, 'On Any Change').webhookId).not.toBe(
			named(dataTables, 'On Any Change').webhookId,
		);
		expect(webhooks.nodes.filter((n) => n.type === 'n8n-nodes-base.code')).toEqual([]);
	});

	it('sync-reconcile-postgres: changed tickets until a page reaches the watermark minus 10 minutes (every page without one), every customer page, then the newest updated_at read as the watermark, never moved back', () => {
		const write = named(reconcile, 'Write Changed Tickets');
		const watermark = (sinceMs: number | null) => ({
			'Read Watermark': [{ since: null, since_ms: sinceMs }],
		});
		const at = (...updated: string[]) =>
			page(
				updated.map((u, i) => ({ ...SERVICE_TICKET, id: `tkt_${i}`, updated_at: u })),
				'next',
			);
		// since_ms: the saved watermark minus the 10 minutes, as Read Watermark selects it.
		expect(String(named(reconcile, 'Read Watermark').parameters.query)).toContain(
			'(extract(epoch FROM max(value)::timestamptz) * 1000 - 600000)::float8 AS since_ms',
		);
		const tenOClock = watermark(Date.parse('2026-11-02T10:00:00.000Z'));
		const goesOn = (
			json: IDataObject,
			outputs: Record<string, IDataObject[]> = tenOClock,
			node = write,
		) => queryParameters(node, json, outputs).slice(1);
		expect(goesOn(at('2026-11-02T10:30:00Z', '2026-11-02T10:00:00Z'))).toEqual(['next', true]);
		expect(goesOn(at('2026-11-02T10:30:00Z', '2026-11-02T09:59:59.999Z'))).toEqual(['next', false]);
		expect(goesOn(at('2020-01-01T00:00:00Z'), watermark(null))).toEqual(['next', true]);
		expect(goesOn(page([], null))).toEqual([null, false]);
		expect(goesOn(page([], 'c2'), {}, named(reconcile, 'Write Customers'))).toEqual(['c2', true]);
		const next = (node: string) => reconcile.connections[node].main.map((o) => o?.[0].node);
		expect([next('More Changed Tickets?'), next('More Customers?')]).toEqual([
			['Get Page of Changed Tickets', 'Get Page of Customers'],
			['Get Page of Customers', 'Save Watermark'],
		]);
		const save = named(reconcile, 'Save Watermark');
		const firstPage = {
			'Get Page of Changed Tickets': [at('2026-11-02T10:30:00Z', '2026-11-02T10:20:00Z')],
		};
		expect(queryParameters(save, {}, firstPage)).toEqual(['2026-11-02T10:30:00.000Z']);
		expect(String(save.parameters.query)).toContain(
			'WHERE s.value::timestamptz < EXCLUDED.value::timestamptz;',
		);
	});

	it('large-account-import-postgres: the position handed on is the cursor, then done; the page noted runs from the position read to the one handed on', () => {
		for (const [resource, lane] of [
			['tickets', 'Ticket'],
			['customers', 'Customer'],
		]) {
			const assignments = (
				named(importer, `Next ${lane} Position`).parameters.assignments as {
					assignments: Array<{ name: string; value: string }>;
				}
			).assignments;
			const hand = (json: IDataObject) =>
				Object.fromEntries(
					assignments.map((a) => [a.name, evaluate(a.value, json, handed(resource, null))]),
				);
			// The next execution reads in the other lane: it waits for the save of the page before this one only.
			expect(hand(page([], 'c2'))).toEqual({ position: `${resource}:c2`, run: '12', lane: 1 });
			expect(hand(page([], null))).toEqual({ position: 'done', run: '12', lane: 1 });
			// The page noted runs from the position read to the one handed on, with its run.
			const write = named(importer, `Write ${lane} Page, Save Position`);
			expect(queryParameters(write, page([], 'c2'), handed(resource, 'c2')).slice(1)).toEqual([
				`${resource}:c1`,
				`${resource}:c2`,
				'12',
				0,
			]);
		}
		expect(
			['tickets:c2', 'customers:c2', 'done'].map((position) =>
				evaluate(condition(importer, 'More Pages?'), { position }),
			),
		).toEqual([true, true, false]);
	});

	it('large-account-import-postgres: started by hand it becomes the run that goes on; a page of a replaced run or of a done chain leads nowhere', () => {
		const read = named(importer, 'Create Tables, Read Position');
		expect(queryParameters(read, {}, { 'Start Import': [{}] })).toEqual([EXECUTION_ID]);
		expect(String(read.parameters.query)).toContain(
			"UPDATE st_import_state SET value = $1, saved_at = now() WHERE key = 'import_run';",
		);
		const still = named(importer, 'Still This Run?');
		expect(queryParameters(still, { position: 'customers:abc', run: '12', lane: 1 })).toEqual([
			'customers:abc',
			'12',
			1,
		]);
		expect(String(still.parameters.query)).toContain("WHERE key = 'import_run' AND value = $2");
		// No row: the Postgres node gives no item; were it { success: true }, the route leads nowhere either.
		const route = String(named(importer, ROUTE).parameters.output);
		expect(
			[{ resource: 'tickets' }, { resource: 'customers' }, { success: true }].map((json) =>
				evaluate(route, json),
			),
		).toEqual([0, 1, 2]);
		expect(importer.connections[ROUTE].main).toHaveLength(2);
	});
});
