// The PostgreSQL editions of Sync 2 and Sync 3: the Data Table edition's flow, the newer-only upsert on the polling
// edition's tables, null kept. In real n8n: `npm run test:sync -- --proof webhooks-postgres`.
import type { IDataObject } from 'n8n-workflow';

import {
	CUSTOMER_ROW,
	evaluate,
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

const webhooks = load('sync-webhooks-postgres.json');
const reconcile = load('sync-reconcile-postgres.json');
const importer = load('large-account-import-postgres.json');
const dataTableWebhooks = load('sync-webhooks.json');
const dataTableReconcile = load('sync-reconcile.json');
const tables = pollingTables();
const link = (...names: string[]) => names.map((node) => ({ node, type: 'main', index: 0 }));
const conditionOf = (name: string, workflow = reconcile) =>
	(named(workflow, name).parameters.conditions as { conditions: Array<{ leftValue: string }> })
		.conditions[0].leftValue;

describe('sync-webhooks-postgres example (Sync 2)', () => {
	it('imports: the trigger and reads of the Data Table edition, then one write per delivery, no Code node', () => {
		expect(webhooks.connections).toEqual({
			'On Any Change': { main: [link('Ticket or Customer?')] },
			'Ticket or Customer?': { main: [link('Get Ticket'), link('Get Customer')] },
			'Get Ticket': { main: [link('Upsert Ticket If Not Older')] },
			'Get Customer': { main: [link('Upsert Customer If Not Older')] },
		});
		for (const name of ['On Any Change', 'Ticket or Customer?', 'Get Ticket', 'Get Customer']) {
			expect({ name, parameters: named(webhooks, name).parameters }).toEqual({
				name,
				parameters: named(dataTableWebhooks, name).parameters,
			});
		}
		// Both editions can be active at once: each trigger has its own production URL.
		expect(named(webhooks, 'On Any Change').webhookId).toBeTruthy();
		expect(named(webhooks, 'On Any Change').webhookId).not.toBe(
			named(dataTableWebhooks, 'On Any Change').webhookId,
		);
		expect(webhooks.nodes.filter((n) => n.type === 'n8n-nodes-base.code')).toEqual([]);
	});

	it.each([
		{
			write: 'Upsert Ticket If Not Older',
			table: tables.tickets,
			record: SERVICE_TICKET,
			row: TICKET_ROW,
		},
		{
			write: 'Upsert Customer If Not Older',
			table: tables.customers,
			record: SERVICE_CUSTOMER,
			row: CUSTOMER_ROW,
		},
	])(
		"$write: the import's newer-only upsert; the record read from the service lands in the columns, null kept",
		({ write, table, record, row }) => {
			const node = named(webhooks, write);
			const query = String(node.parameters.query);
			expect(query).toContain(expectedUpsert(table));
			expect(highestPlaceholder(query)).toBe(1);
			const [rows, ...rest] = queryParameters(node, record);
			expect(rest).toEqual([]);
			const parsed = JSON.parse(String(rows)) as IDataObject[];
			expect(parsed).toEqual([row]);
			expect(Object.keys(parsed[0])).toEqual(table.columns);
		},
	);
});

describe('sync-reconcile-postgres example (Sync 3)', () => {
	it('imports: schedule and manual start, changed tickets page by page down to the watermark, every customer page by page, then the watermark', () => {
		expect(reconcile.connections).toEqual({
			'Every 15 Minutes': { main: [link('Read Watermark')] },
			'Start Reconcile': { main: [link('Read Watermark')] },
			'Read Watermark': { main: [link('Get Page of Changed Tickets')] },
			'Get Page of Changed Tickets': { main: [link('Write Changed Tickets')] },
			'Write Changed Tickets': { main: [link('More Changed Tickets?')] },
			'More Changed Tickets?': {
				main: [link('Get Page of Changed Tickets'), link('Get Page of Customers')],
			},
			'Get Page of Customers': { main: [link('Write Customers')] },
			'Write Customers': { main: [link('More Customers?')] },
			'More Customers?': { main: [link('Get Page of Customers'), link('Save Watermark')] },
		});
		expect(named(reconcile, 'Every 15 Minutes').parameters).toEqual(
			named(dataTableReconcile, 'Every 15 Minutes').parameters,
		);
		const tickets = named(reconcile, 'Get Page of Changed Tickets').parameters;
		const dataTableTickets = named(dataTableReconcile, 'Get Page of Changed Tickets').parameters;
		expect({ ...tickets, cursor: undefined }).toEqual({ ...dataTableTickets, cursor: undefined });
		expect(tickets.cursor).toBe("={{ $json.ticket_cursor ?? '' }}");
		expect(named(reconcile, 'Get Page of Customers').parameters).toEqual({
			resource: 'customer',
			operation: 'getAll',
			pagination: 'onePage',
			cursor: "={{ $json.customer_cursor ?? '' }}",
			pageSize: 100,
		});
		expect(reconcile.nodes.filter((n) => n.type === 'n8n-nodes-base.code')).toEqual([]);
	});

	it('creates the tables it uses if missing, with the very statements of Sync 1, and reads the watermark minus 10 minutes', () => {
		const query = String(named(reconcile, 'Read Watermark').parameters.query);
		// Sync 1's st_import_pages (the pages written ahead of the saved position) is the import's alone.
		const importDdl = String(named(importer, 'Create Tables, Read Position').parameters.query)
			.split('\n')
			.filter((line) => line.startsWith('CREATE TABLE') && !line.includes('st_import_pages'));
		expect(importDdl).toHaveLength(3);
		for (const create of importDdl) expect(query.split('\n')).toContain(create);
		expect(query).toContain(
			"SELECT max(value) AS since, (extract(epoch FROM max(value)::timestamptz) * 1000 - 600000)::float8 AS since_ms FROM st_import_state WHERE key = 'reconcile_since';",
		);
	});

	const watermark = {
		'Read Watermark': [
			{ since: '2026-11-02T10:10:00.000Z', since_ms: Date.parse('2026-11-02T10:00:00.000Z') },
		],
	};
	const page = (updated: string[], hasMore: boolean): IDataObject => ({
		data: updated.map((u, i) => ({ ...SERVICE_TICKET, id: `tkt_${i}`, updated_at: u })),
		count: updated.length,
		has_more: hasMore,
		next_cursor: hasMore ? 'next' : null,
	});

	it('writes a page of changed tickets in one upsert and goes on while the page has not reached the watermark minus the overlap', () => {
		const write = named(reconcile, 'Write Changed Tickets');
		const query = String(write.parameters.query);
		expect(query).toContain(expectedUpsert(tables.tickets));
		expect(query.trim().endsWith('SELECT $2::text AS ticket_cursor, $3::boolean AS more;')).toBe(
			true,
		);
		expect(highestPlaceholder(query)).toBe(3);
		const [rows, cursor, more] = queryParameters(
			write,
			page(['2026-11-02T10:30:00.000Z', '2026-11-02T10:00:00.000Z'], true),
			watermark,
		);
		expect(JSON.parse(String(rows))).toEqual([
			{
				...TICKET_ROW,
				ticket_id: 'tkt_0',
				updated_at: '2026-11-02T10:30:00.000Z',
				updated_ms: Date.parse('2026-11-02T10:30:00.000Z'),
			},
			{
				...TICKET_ROW,
				ticket_id: 'tkt_1',
				updated_at: '2026-11-02T10:00:00.000Z',
				updated_ms: Date.parse('2026-11-02T10:00:00.000Z'),
			},
		]);
		expect([cursor, more]).toEqual(['next', true]);
		// The oldest on the page is below the watermark minus 10 minutes: no further page.
		expect(
			queryParameters(
				write,
				page(['2026-11-02T10:30:00.000Z', '2026-11-02T09:59:59.999Z'], true),
				watermark,
			).slice(1),
		).toEqual(['next', false]);
		expect(
			queryParameters(write, page(['2026-11-02T10:30:00.000Z'], false), watermark).slice(1),
		).toEqual([null, false]);
		// No watermark yet (Sync 1 never ran): every page.
		expect(
			queryParameters(write, page(['2020-01-01T00:00:00.000Z'], true), {
				'Read Watermark': [{ since: null, since_ms: null }],
			}).slice(1),
		).toEqual(['next', true]);
		expect(
			evaluate(conditionOf('More Changed Tickets?'), { ticket_cursor: 'next', more: true }),
		).toBe(true);
		expect(
			evaluate(conditionOf('More Changed Tickets?'), { ticket_cursor: null, more: false }),
		).toBe(false);
	});

	it('writes each customer page in one upsert, null kept, and follows the cursor to the last page', () => {
		const write = named(reconcile, 'Write Customers');
		const query = String(write.parameters.query);
		expect(query).toContain(expectedUpsert(tables.customers));
		expect(query.trim().endsWith('SELECT $2::text AS customer_cursor, $3::boolean AS more;')).toBe(
			true,
		);
		const [rows, cursor, more] = queryParameters(write, {
			data: [SERVICE_CUSTOMER],
			count: 1,
			has_more: true,
			next_cursor: 'c2',
		});
		expect(JSON.parse(String(rows))).toEqual([CUSTOMER_ROW]);
		expect(Object.keys(CUSTOMER_ROW)).toEqual(tables.customers.columns);
		expect([cursor, more]).toEqual(['c2', true]);
		expect(
			queryParameters(write, { data: [], count: 0, has_more: false, next_cursor: null }).slice(1),
		).toEqual([null, false]);
	});

	it('saves the newest updated_at read (the first page of the run) after every write, never moving it back', () => {
		const save = named(reconcile, 'Save Watermark');
		const query = String(save.parameters.query);
		expect(query).toContain(
			"INSERT INTO st_import_state AS s (key, value) SELECT 'reconcile_since', $1::text WHERE $1::text <> ''",
		);
		expect(query).toContain('WHERE s.value::timestamptz < EXCLUDED.value::timestamptz;');
		const firstPage = page(['2026-11-02T10:30:00.000Z', '2026-11-02T10:20:00.000Z'], true);
		const outputs = { 'Get Page of Changed Tickets': [firstPage] };
		expect(queryParameters(save, { customer_cursor: null, more: false }, outputs)).toEqual([
			'2026-11-02T10:30:00.000Z',
		]);
		expect(queryParameters(save, {}, { 'Get Page of Changed Tickets': [page([], false)] })).toEqual(
			[''],
		);
	});
});
