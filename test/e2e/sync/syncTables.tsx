import type { N8nRestClient } from '../n8n/restClient';
import type { PostgresServer } from '../queue/services/postgresServer';

/** The sync examples' tables: one row per ticket and per customer, keyed by the service's id. */
export const TICKET_TABLE = 'st_tickets';
export const CUSTOMER_TABLE = 'st_customers';
export const STATE_TABLE = 'st_state';
/** The PostgreSQL editions' state (examples/*-postgres.json): the import's positions (one per chain) and the reconcile's watermark. */
export const POSTGRES_STATE_TABLE = 'st_import_state';
export const IMPORT_POSITION_KEYS = ['tickets_position', 'customers_position'] as const;
export const WATERMARK_KEY = 'reconcile_since';

export type Row = Record<string, unknown>;

/** The service's list calls (a page of tickets or customers), and each alone. */
export const LIST_PATH = /\/(tickets|customers)$/;
export const TICKET_LIST = /\/tickets$/;
export const CUSTOMER_LIST = /\/customers$/;

interface TableInfo {
	id: string;
	name: string;
	projectId: string;
}

const PAGE = 250;

async function findTable(rest: N8nRestClient, name: string): Promise<TableInfo> {
	const tables = await rest.expectOk<{ data: TableInfo[] }>('GET', '/data-tables-global?take=100');
	const table = tables.data.find((t) => t.name === name);
	if (!table)
		throw new Error(`no Data Table ${name}; tables: ${tables.data.map((t) => t.name).join(', ')}`);
	return table;
}

const rowsPath = (table: TableInfo) => `/projects/${table.projectId}/data-tables/${table.id}`;

/** Every row of a Data Table, read through the editor's REST API (what the Data Tables screen shows). */
export async function readTable(rest: N8nRestClient, name: string): Promise<Row[]> {
	const table = await findTable(rest, name);
	const rows: Row[] = [];
	for (let skip = 0; ; skip += PAGE) {
		const page = await rest.expectOk<{ data: Row[] }>(
			'GET',
			`${rowsPath(table)}/rows?take=${PAGE}&skip=${skip}`,
		);
		rows.push(...page.data);
		if (page.data.length < PAGE) return rows;
	}
}

/** Deletes a Data Table if it exists, rows and all. */
export async function dropTable(rest: N8nRestClient, name: string): Promise<void> {
	const table = await findTable(rest, name).catch(() => undefined);
	if (table) await rest.expectOk('DELETE', rowsPath(table));
}

/** Adds a row to a Data Table, as a writer of the workflows would. */
export async function insertRow(rest: N8nRestClient, name: string, row: Row): Promise<void> {
	const table = await findTable(rest, name);
	await rest.expectOk('POST', `${rowsPath(table)}/insert`, { data: [row], returnType: 'count' });
}

/** Where the copy is read from: n8n's Data Tables (through the editor's API) or PostgreSQL. */
export interface CopyStore {
	/** The rows; none while the workflow has not yet created the table. */
	rows(resource: 'tickets' | 'customers'): Promise<Row[]>;
	/** A value the sync keeps beside the copy (e.g. the reconcile's watermark); undefined when not there. */
	state(key: string): Promise<string | undefined>;
}

const tableOf = (resource: 'tickets' | 'customers') =>
	resource === 'tickets' ? TICKET_TABLE : CUSTOMER_TABLE;

export function dataTableStore(rest: N8nRestClient): CopyStore {
	return {
		rows: (resource) =>
			readTable(rest, tableOf(resource)).catch((error: unknown) => {
				if (String(error).includes(`no Data Table ${tableOf(resource)}`)) return [];
				throw error;
			}),
		state: async (key) => {
			const row = (await readTable(rest, STATE_TABLE)).find((r) => r.key === key);
			return row ? String(row.value) : undefined;
		},
	};
}

async function tableExists(postgres: PostgresServer, table: string): Promise<boolean> {
	const [found] = await postgres.query<{ name: string | null }>(
		`SELECT to_regclass('${table}')::text AS name`,
	);
	return Boolean(found?.name);
}

export function postgresStore(postgres: PostgresServer): CopyStore {
	return {
		rows: async (resource) => {
			const table = tableOf(resource);
			return (await tableExists(postgres, table))
				? await postgres.query<Row>(`SELECT * FROM ${table}`)
				: [];
		},
		state: (key) => postgresState(postgres, key),
	};
}

export async function postgresState(
	postgres: PostgresServer,
	key: string,
): Promise<string | undefined> {
	if (!(await tableExists(postgres, POSTGRES_STATE_TABLE))) return undefined;
	const rows = await postgres.query<{ value: string }>(
		`SELECT value FROM ${POSTGRES_STATE_TABLE} WHERE key = '${key.replaceAll("'", "''")}'`,
	);
	return rows[0]?.value;
}

/** How many rows a Data Table holds (0 before it exists). */
export async function countRows(rest: N8nRestClient, name: string): Promise<number> {
	const table = await findTable(rest, name).catch(() => undefined);
	if (!table) return 0;
	return (await rest.expectOk<{ count: number }>('GET', `${rowsPath(table)}/rows?take=1`)).count;
}
