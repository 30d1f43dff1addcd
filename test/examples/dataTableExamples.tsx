// The Data Table sync examples node by node as their JSON says, without n8n: our nodes through the harness, the Code nodes'
// JavaScript, Switch, If and Split Out expressions, Data Table filters on tables in memory; a hook before a node replays an
// interleaving of executions exactly. n8n's own nodes: `npm run test:sync`. Any parameter this does not know throws.
import type { ICredentialDataDecryptedObject, IDataObject, INode } from 'n8n-workflow';

import { chainWorkflow, runWorkflow, workflowNode, type WorkflowJson } from '../harness';
import { evaluate, named, type Runs, selector, type Selector } from './postgresExamples';

export type Row = IDataObject & { id: number };

/** st_tickets, st_customers and st_state as n8n keeps them: rows with a row id, a column's missing value null. */
export class DataTables {
	private nextId = 1;
	private readonly tables = new Map<string, Row[]>(
		['st_tickets', 'st_customers', 'st_state'].map((name) => [name, []]),
	);

	names = (): string[] => [...this.tables.keys()];

	rows(table: string): Row[] {
		const rows = this.tables.get(table);
		if (!rows) throw new Error(`no Data Table ${table}`);
		return rows;
	}

	insert(table: string, columns: IDataObject): Row {
		const row = { ...columns, id: this.nextId++ };
		this.rows(table).push(row);
		return row;
	}

	remove = (table: string, rows: Row[]) =>
		this.tables.set(
			table,
			this.rows(table).filter((row) => !rows.includes(row)),
		);
}

export interface RunContext {
	tables: DataTables;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** Awaited before the named node runs (each time it runs): another execution can go on meanwhile. */
	before?: Record<string, () => Promise<void>>;
}

/** A parameter as n8n resolves it for one item: `={{ … }}` evaluated on `$json` and the nodes run so far, anything else as it is. */
function resolve(value: unknown, json: IDataObject, runs: Runs): unknown {
	return typeof value === 'string' && value.startsWith('=') ? evaluate(value, json, runs) : value;
}

/** Throws on a parameter not among `known` (space-separated). */
function only(node: INode, known: string): void {
	const unknown = Object.keys(node.parameters).filter((key) => !known.split(' ').includes(key));
	if (unknown.length)
		throw new Error(`${node.name}: parameters ${unknown.join(', ')} are not modelled here`);
}

interface Condition {
	keyName: string;
	condition: string;
	keyValue: unknown;
}

/** The Data Table conditions Sync 2 and 3 use; an ordering never matches a missing (null) value. */
const COMPARE: Record<string, (stored: never, wanted: never) => boolean> = {
	eq: (stored, wanted) => stored === wanted,
	lte: (stored, wanted) => stored !== null && stored <= wanted,
};

const matches = (row: Row, conditions: Condition[], json: IDataObject, runs: Runs) =>
	conditions.every(({ keyName, condition, keyValue }) => {
		const compare = COMPARE[condition];
		if (!compare) throw new Error(`Data Table condition ${condition} is not modelled here`);
		return compare((row[keyName] ?? null) as never, resolve(keyValue, json, runs) as never);
	});

function dataTable(
	node: INode,
	items: IDataObject[],
	runs: Runs,
	tables: DataTables,
): IDataObject[] {
	const p = node.parameters as IDataObject;
	if (p.resource === 'table') {
		only(node, 'resource operation returnAll options');
		if (p.operation !== 'list')
			throw new Error(`${node.name}: table ${String(p.operation)} is not modelled here`);
		const filter = String((p.options as IDataObject | undefined)?.filterName ?? '');
		return tables
			.names()
			.filter((name) => name.includes(filter))
			.map((name) => ({ id: `id-${name}`, name }));
	}
	only(node, 'resource operation dataTableId matchType filters returnAll columns options');
	if (p.matchType !== undefined && p.matchType !== 'allConditions')
		throw new Error(`${node.name}: match ${String(p.matchType)} is not modelled here`);
	const out: IDataObject[] = [];
	for (const json of items) {
		const id = String(resolve((p.dataTableId as IDataObject).value, json, runs));
		const table = /^id-(st_\w+)$/.exec(id)?.[1];
		if (!table) throw new Error(`${node.name}: no table ${id}`);
		const conditions = ((p.filters as { conditions?: Condition[] } | undefined)?.conditions ??
			[]) as Condition[];
		const found = tables.rows(table).filter((row) => matches(row, conditions, json, runs));
		const columns = () => {
			const mapping = p.columns as { mappingMode: string; value: IDataObject };
			if (mapping.mappingMode !== 'defineBelow')
				throw new Error(`${node.name}: mapping ${mapping.mappingMode} is not modelled here`);
			return Object.fromEntries(
				Object.entries(mapping.value).map(([column, value]) => [
					column,
					resolve(value, json, runs) ?? null,
				]),
			);
		};
		const changed = () => (found.forEach((row) => Object.assign(row, columns())), found);
		const operations: Record<string, () => Row[]> = {
			get: () => {
				if (p.returnAll !== true) throw new Error(`${node.name}: only Return All is modelled here`);
				return found;
			},
			update: changed,
			upsert: () => (found.length ? changed() : [tables.insert(table, columns())]),
			deleteRows: () => (tables.remove(table, found), found),
		};
		const operation = operations[String(p.operation)];
		if (!operation)
			throw new Error(`${node.name}: row ${String(p.operation)} is not modelled here`);
		out.push(...operation().map((row) => ({ ...row })));
	}
	return out;
}

/** Our node in n8n's engine (the harness), after stand-ins for the nodes its expressions read, on the given items. */
async function supportTicket(
	node: INode,
	items: IDataObject[],
	runs: Runs,
	credentials: RunContext['credentials'],
): Promise<IDataObject[]> {
	const referenced = [
		...new Set([...JSON.stringify(node.parameters).matchAll(/\$\('([^']+)'\)/g)].map((m) => m[1])),
	];
	const feeds: Array<[string, IDataObject[]]> = referenced.map((name) => [
		name,
		selector(runs)(name)
			.all()
			.map((i) => i.json),
	]);
	feeds.push(['Input of the node', items]);
	const workflow: WorkflowJson = chainWorkflow(
		workflowNode('Start', 'n8n-nodes-base.manualTrigger', {}, { credentials: undefined }),
		...feeds.map(([name, json], i) =>
			workflowNode(
				name,
				'harness.items',
				{ json: JSON.stringify(json) },
				{ position: [100 * (i + 1), 0], credentials: undefined },
			),
		),
		{ ...node, position: [100 * (feeds.length + 1), 0] },
	);
	const run = await runWorkflow(workflow, credentials);
	if (run.error) throw new Error(`${node.name}: ${run.error.message}`);
	return run.output(node.name).map((item) => item.json);
}

async function execute(
	node: INode,
	items: IDataObject[],
	runs: Runs,
	context: RunContext,
): Promise<IDataObject[][]> {
	const p = node.parameters as IDataObject;
	switch (node.type) {
		case 'n8n-nodes-support-ticket.supportTicket':
			return [await supportTicket(node, items, runs, context.credentials)];
		case 'n8n-nodes-base.dataTable':
			return [dataTable(node, items, runs, context.tables)];
		case 'n8n-nodes-base.code': {
			only(node, 'jsCode');
			const input = {
				all: () => items.map((json) => ({ json })),
				first: () => ({ json: items[0] }),
			};
			const returned = (
				new Function('$', '$input', String(p.jsCode)) as (
					s: Selector,
					i: typeof input,
				) => Array<{ json: IDataObject }>
			)(selector(runs), input);
			return [returned.map((item) => item.json)];
		}
		case 'n8n-nodes-base.switch': {
			only(node, 'mode numberOutputs output looseTypeValidation options');
			if (p.mode !== 'expression')
				throw new Error(`${node.name}: Switch mode ${String(p.mode)} is not modelled here`);
			const outputs: IDataObject[][] = Array.from({ length: Number(p.numberOutputs) }, () => []);
			for (const json of items) {
				const index = Number(resolve(p.output, json, runs));
				if (!outputs[index]) throw new Error(`${node.name}: output ${index} does not exist`);
				outputs[index].push(json);
			}
			return outputs;
		}
		case 'n8n-nodes-base.if': {
			only(node, 'conditions looseTypeValidation options');
			const { conditions, combinator } = p.conditions as {
				conditions: Array<{ leftValue: string; operator: { type: string; operation: string } }>;
				combinator: string;
			};
			const [condition] = conditions;
			if (
				conditions.length !== 1 ||
				combinator !== 'and' ||
				condition.operator.type !== 'boolean' ||
				condition.operator.operation !== 'true'
			) {
				throw new Error(`${node.name}: only one "is true" condition is modelled here`);
			}
			const outputs: IDataObject[][] = [[], []];
			for (const json of items)
				outputs[resolve(condition.leftValue, json, runs) === true ? 0 : 1].push(json);
			return outputs;
		}
		case 'n8n-nodes-base.splitOut':
			only(node, 'fieldToSplitOut options');
			return [items.flatMap((json) => json[String(p.fieldToSplitOut)] as IDataObject[])];
		default:
			throw new Error(`${node.name}: ${node.type} is not modelled here`);
	}
}

/**
 * One execution from `start` (a trigger, given its items), n8n's v1 order: each branch to its end before the next, the
 * upper output first; a node without items does not run; "Always Output Data" gives one empty item; "Execute Once" the first.
 */
export async function runExample(
	workflow: WorkflowJson,
	start: string,
	items: IDataObject[],
	context: RunContext,
) {
	const runs: Runs = new Map();
	const stack: Array<{ name: string; items: IDataObject[] }> = [];
	const finish = (name: string, outputs: IDataObject[][]) => {
		runs.set(name, [...(runs.get(name) ?? []), outputs]);
		const next: Array<{ name: string; items: IDataObject[] }> = [];
		(workflow.connections[name]?.main ?? []).forEach((connections, output) => {
			for (const c of connections ?? [])
				if (outputs[output]?.length) next.push({ name: c.node, items: outputs[output] });
		});
		stack.push(...next.reverse());
	};
	finish(start, [items]);
	for (let step = 0; stack.length; step++) {
		if (step > 1000) throw new Error('more than 1000 node runs: a loop that does not end');
		const { name, items: input } = stack.pop() as { name: string; items: IDataObject[] };
		const node = named(workflow, name);
		await context.before?.[name]?.();
		const outputs = await execute(
			node,
			node.executeOnce ? input.slice(0, 1) : input,
			runs,
			context,
		);
		if (node.alwaysOutputData && outputs.every((o) => o.length === 0)) outputs[0] = [{}];
		finish(name, outputs);
	}
	// The items of a node's output in its last run.
	return { output: (node: string, output = 0) => runs.get(node)?.at(-1)?.[output] ?? [] };
}
