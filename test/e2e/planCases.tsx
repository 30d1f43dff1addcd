// Each sync example's "Plan Ticket Writes", as shipped, in n8n's Code node on pinned inputs: the orders `npm run test:sync`
// cannot force every time (a stored row newer than what was read, a second row holding the newest state).
import assert from 'node:assert/strict';

import { chainWorkflow, workflowNode } from '../harness/workflows';
import type { ServerContext } from './context';
import { runFromEditor } from './executions';
import { findWorkflow, type WorkflowFile } from './fixtures';
import { nodeOutput } from './runData';
import type { Suite } from './suite';

const PLAN = 'Plan Ticket Writes';
const START = 'Start';
const STORED = 'Stored Rows';
const PLAN_EXAMPLES = [
	['examples/sync-initial-import.json', 'e2ePlanImport'],
	['examples/sync-webhooks.json', 'e2ePlanWebhooks'],
	['examples/sync-reconcile.json', 'e2ePlanReconcile'],
] as const;

const FEB = '2026-02-01T00:00:00.000Z';
const FIELDS = {
	description: 'd',
	status: 'open',
	priority: 'normal',
	created_at: '2026-01-01T00:00:00.000Z',
};
const ticket = (id: string, subject = 'S') => ({
	id,
	subject,
	...FIELDS,
	customer: { id: 'cus_1' },
	updated_at: FEB,
});
const row = (rowId: number, ticketId: string, updatedAt: string, subject = 'S') => ({
	id: rowId,
	ticket_id: ticketId,
	subject,
	...FIELDS,
	customer_id: 'cus_1',
	updated_at: updatedAt,
	updated_ms: Date.parse(updatedAt),
});

/** Every ticket read in February; what is stored for each decides. */
const READ = [
	...['tkt_1', 'tkt_2', 'tkt_3', 'tkt_4'].map((id) => ticket(id)),
	ticket('tkt_5', 'read late'),
	ticket('tkt_6', 'changed again'),
];
const STORED_ROWS = [
	row(10, 'tkt_2', '2026-01-15T00:00:00.000Z'), // older: update
	row(11, 'tkt_3', FEB), // equal: nothing
	row(12, 'tkt_4', '2026-03-01T00:00:00.000Z'), // newer (another writer read later): nothing
	row(13, 'tkt_3', FEB), // second row for tkt_3: removed
	row(20, 'tkt_5', '2026-01-15T00:00:00.000Z'), // first row, older
	row(21, 'tkt_5', '2026-03-01T00:00:00.000Z', 'newest'), // second row, newer than the read: its state goes into the first
	row(30, 'tkt_6', FEB), // the same updated_at, other fields (two changes in one second): the state read wins
];
/** A stored row's columns (without the row id), as the plan writes them. */
const columns = (stored: ReturnType<typeof row>) =>
	Object.fromEntries(Object.entries(stored).filter(([key]) => key !== 'id'));
/** The row a ticket read makes (ticket() and row() have the same defaults). */
const asRow = (t: ReturnType<typeof ticket>) => columns(row(0, t.id, t.updated_at, t.subject));
const EXPECTED = [
	{ action: 'insert', ...asRow(READ[0]) },
	{ action: 'update', ...asRow(READ[1]) },
	{ action: 'dedupe', ticket_id: 'tkt_3', row_id: 13 },
	{ action: 'update', ...columns(STORED_ROWS[5]) },
	{ action: 'dedupe', ticket_id: 'tkt_5', row_id: 21 },
	{ action: 'update', ...asRow(READ[5]) },
];

/** What each node the Code reads with `$('…')` put out, and the stored rows it gets as its input. */
const PINNED: Record<string, unknown[]> = {
	'Get Ticket': READ,
	'One Item per Ticket': READ,
	'Read Watermark': [{ key: 'reconcile_since', value: '' }],
	'Get Page of Changed Tickets': [
		{ data: READ, count: READ.length, has_more: false, next_cursor: null },
	],
	[STORED]: STORED_ROWS,
};

function referencedNodes(jsCode: string): string[] {
	return [...new Set([...jsCode.matchAll(/\$\('([^']+)'\)/g)].map((match) => match[1]))];
}

/** Per example: Start → a No Operation per node the Code reads, then one for the stored rows → the example's Plan Ticket Writes. */
export function planWorkflows(examples: WorkflowFile[]): WorkflowFile[] {
	return PLAN_EXAMPLES.map(([file, id]) => {
		const example = findWorkflow(examples, file);
		const plan = example.json.nodes.find((node) => node.name === PLAN);
		if (!plan) throw new Error(`${file} has no node "${PLAN}"`);
		const names = [...referencedNodes(String(plan.parameters.jsCode)), STORED];
		const unknown = names.filter((name) => !PINNED[name]);
		if (unknown.length)
			throw new Error(
				`${file}: ${PLAN} reads ${unknown.join(', ')}, which planCases.tsx does not pin`,
			);
		const node = (name: string, type: string, at: number) => {
			const position: [number, number] = [220 * at, 0];
			return workflowNode(name, type, {}, { id: `${id}-${at}`, position, credentials: undefined });
		};
		const { nodes, connections } = chainWorkflow(
			node(START, 'n8n-nodes-base.manualTrigger', 0),
			...names.map((name, i) => node(name, 'n8n-nodes-base.noOp', i + 1)),
			{ ...plan, position: [220 * (names.length + 1), 0] },
		);
		const name = `${example.json.name} (e2e, ${PLAN} alone)`;
		const json = { id, name, nodes, connections, settings: { executionOrder: 'v1' as const } };
		return { file: `${file} (${PLAN} alone, ${id})`, id, json };
	});
}

export function addPlanCases(suite: Suite, context: () => ServerContext): void {
	for (const [file, id] of PLAN_EXAMPLES) {
		suite.test(
			`${file}: "${PLAN}" in n8n's Code node inserts what is missing, updates what is older or of the same updated_at with other fields, leaves equal or newer rows, and merges a second row (the newest state into the first row)`,
			async () => {
				const { rest, install, examples } = context();
				const workflow = planWorkflows(examples).find((w) => w.id === id) as WorkflowFile;
				const pinned = workflow.json.nodes.map(({ name }) => name).filter((name) => PINNED[name]);
				const pinData = Object.fromEntries(
					pinned.map((n) => [n, PINNED[n].map((json) => ({ json }))]),
				);
				const { execution, run } = await runFromEditor(rest, install, id, START, { pinData });
				assert.equal(execution.status, 'success', `${workflow.file}: ${JSON.stringify(execution)}`);
				assert.deepEqual(
					nodeOutput(run, PLAN).filter((d) => d.action !== 'summary'),
					EXPECTED,
				);
			},
		);
	}
}
