// What the example tests share (loader, expressions), and the Postgres editions without PostgreSQL: the SQL text, and Query
// Parameters as the Postgres node 2.6 binds them (one array, objects as JSON, `undefined` left out). Real runs: `npm run test:sync`.
import { readFileSync } from 'node:fs';

import type { IDataObject, INode } from 'n8n-workflow';

import { repoPath, type WorkflowJson } from '../harness';

export const load = (file: string) =>
	JSON.parse(readFileSync(repoPath('examples', file), 'utf8')) as WorkflowJson;

export function named(workflow: WorkflowJson, name: string): INode {
	const found = workflow.nodes.find((n) => n.name === name);
	if (!found) throw new Error(`no node ${name}`);
	return found;
}

export const POSTGRES_CREDENTIAL = {
	postgres: { id: 'syncPostgres', name: 'Postgres (the copy)' },
};

export interface Table {
	name: 'st_tickets' | 'st_customers';
	key: string;
	columns: string[];
}

/** The tables as sync-by-polling-postgres.json creates them: the three new examples must create the very same. */
export function pollingTables(): { tickets: Table; customers: Table; createStatements: string[] } {
	const polling = load('sync-by-polling-postgres.json');
	const createStatements = ['Create Table st_tickets', 'Create Table st_customers'].map((name) =>
		String(named(polling, name).parameters.query),
	);
	const table = (statement: string): Table => {
		const match = /^CREATE TABLE IF NOT EXISTS (st_\w+) \((.*)\);$/.exec(statement);
		if (!match) throw new Error(`not a CREATE TABLE: ${statement}`);
		const definitions = match[2].split(', ').map((d) => d.split(' '));
		const key = definitions.find((d) => d.slice(2).join(' ') === 'PRIMARY KEY')?.[0];
		if (!key) throw new Error(`no primary key in ${statement}`);
		return { name: match[1] as Table['name'], key, columns: definitions.map((d) => d[0]) };
	};
	return {
		tickets: table(createStatements[0]),
		customers: table(createStatements[1]),
		createStatements,
	};
}

/** The newer-only upsert of a whole JSON array of rows ($1), as all three examples write it. */
export function expectedUpsert(table: Table): string {
	const columns = table.columns.join(', ');
	return [
		`INSERT INTO ${table.name} AS t (${columns})`,
		`SELECT DISTINCT ON (${table.key}) ${columns}`,
		`FROM json_populate_recordset(NULL::${table.name}, $1::json) ORDER BY ${table.key}, updated_ms DESC`,
		`ON CONFLICT (${table.key}) DO UPDATE SET ${table.columns
			.filter((c) => c !== table.key)
			.map((c) => `${c} = EXCLUDED.${c}`)
			.join(', ')}`,
		'WHERE t.updated_ms <= EXCLUDED.updated_ms;',
	].join('\n');
}

type NodeOutputs = Record<string, IDataObject[]>;

/** Each run of a node: the items of each of its outputs. */
export type Runs = Map<string, IDataObject[][][]>;

export type Selector = ReturnType<typeof selector>;

/** `$('Node')` over the runs so far: `.first()` and `.all()` of an output and run (default the last), `.isExecuted`. */
export function selector(runs: Runs) {
	return (name: string) => {
		const items = (output = 0, run?: number) => {
			const all = runs.get(name);
			if (!all) throw new Error(`$('${name}') has not run`);
			return all[run ?? all.length - 1][output] ?? [];
		};
		return {
			isExecuted: runs.has(name),
			first: (output?: number, run?: number) => {
				const first = items(output, run)[0];
				if (!first) throw new Error(`$('${name}') has no item`);
				return { json: first };
			},
			all: (output?: number, run?: number) => items(output, run).map((json) => ({ json })),
		};
	};
}

/** `$execution.id` in evaluated expressions. */
export const EXECUTION_ID = '4711';

/** One `={{ … }}` expression of a parameter, evaluated on `$json` (the only input item) and the given node outputs (each one run) or runs. */
export function evaluate(
	expression: unknown,
	json: IDataObject,
	outputs: NodeOutputs | Runs = {},
): unknown {
	const body = /^=\{\{ (.*) \}\}$/s.exec(String(expression))?.[1];
	if (body === undefined) throw new Error(`${String(expression)} is not one expression`);
	const runs =
		outputs instanceof Map
			? outputs
			: new Map(Object.entries(outputs).map(([name, items]) => [name, [[items]]]));
	const run = new Function(
		'$json',
		'$input',
		'$itemIndex',
		'$',
		'$workflow',
		'$execution',
		`return (${body});`,
	) as (
		j: IDataObject,
		i: { all: () => Array<{ json: IDataObject }> },
		index: number,
		s: Selector,
		w: IDataObject,
		e: IDataObject,
	) => unknown;
	// The item evaluated is the node's only input item.
	const input = { all: () => [{ json }] };
	return run(json, input, 0, selector(runs), { id: 'wf' }, { id: EXECUTION_ID });
}

/** The values the Postgres node binds to $1, $2, … for one input item. */
export function queryParameters(
	node: INode,
	json: IDataObject,
	outputs: NodeOutputs = {},
): unknown[] {
	const values = evaluate((node.parameters.options as IDataObject).queryReplacement, json, outputs);
	if (!Array.isArray(values)) throw new Error(`${node.name}: Query Parameters are not one array`);
	// As the node does: objects go as JSON, undefined is left out (and would shift the others).
	return values
		.filter((v) => v !== undefined)
		.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : v));
}

/** A ticket and a customer as the service sends them: a missing description, a customer without a name. */
export const SERVICE_TICKET: IDataObject = {
	id: 'tkt_1',
	subject: 'Printer on fire',
	status: 'open',
	priority: 'high',
	customer: { id: 'cus_1', email: 'ana@example.com', name: null },
	created_at: '2026-11-01T09:00:00.000Z',
	updated_at: '2026-11-02T10:00:00.123Z',
	custom_fields: { plan: 'gold' },
};
export const SERVICE_CUSTOMER: IDataObject = {
	id: 'cus_1',
	email: 'ana@example.com',
	name: null,
	created_at: '2026-11-01T09:00:00.000Z',
	updated_at: '2026-11-03T08:00:00.000Z',
};

/** The rows the copy must get for them: every column, null where the service has none. */
export const TICKET_ROW = {
	ticket_id: 'tkt_1',
	subject: 'Printer on fire',
	description: null,
	status: 'open',
	priority: 'high',
	customer_id: 'cus_1',
	created_at: '2026-11-01T09:00:00.000Z',
	updated_at: '2026-11-02T10:00:00.123Z',
	updated_ms: Date.parse('2026-11-02T10:00:00.123Z'),
};
export const CUSTOMER_ROW = {
	customer_id: 'cus_1',
	email: 'ana@example.com',
	name: null,
	created_at: '2026-11-01T09:00:00.000Z',
	updated_at: '2026-11-03T08:00:00.000Z',
	updated_ms: Date.parse('2026-11-03T08:00:00.000Z'),
};
