/**
 * examples/large-account-import-postgres.json in real n8n: started by hand, each execution reads one
 * page, starts the next execution with the next position, then writes its page and saves the
 * position. Before the import, its own statements save two pages in the order the chain can end
 * them in, the later one first. Once during the run one list page fails in a way the node does not
 * retry (the service says there is more but gives no cursor): the chain stops there, the position
 * stays at the last page written, and it is run by hand again twice at once: both chains continue
 * from the saved position, and the one whose run was replaced stops at its next page instead of
 * reading every page a second time.
 */
import type { Sandbox } from '../../../sandbox';
import type { WorkflowFile } from '../fixtures';
import type { ExecutionSummary, N8nRestClient } from '../n8n/restClient';
import type { PostgresServer } from '../queue/services/postgresServer';
import { isFinished } from '../executions';
import { waitUntil } from '../wait';
import { IMPORT_POSITION_KEY, postgresState } from './syncTables';

const LIST_PATH = /\/(tickets|customers)$/;
const TRIGGER = 'Start Import';
const WAIT_MS = 15 * 60_000;
const READ = 'Create Tables, Read Position';
const WRITE = 'Write Ticket Page, Save Position';

export interface ChainedImportFigures {
	seconds: number;
	/** List calls of the whole import (the failed page and its repetition included). */
	listCalls: number;
	/** ⌈tickets/100⌉ + ⌈customers/100⌉ at the end: what an import without the stop would read, at least. */
	pagesNeeded: number;
	/** The list call that failed, and the position saved when the chain stopped. */
	stoppedAtCall: number;
	stoppedAt: string;
	failure: string;
	/** savePagesOutOfOrder: the saved positions and the pages still noted, in the order it prints them. */
	savedOutOfOrder: string[];
	/** The import's executions n8n kept: the three started by hand and the failed one (successful pages are not kept). */
	executionsKept: { total: number; byStatus: Record<string, number> };
}

async function position(postgres: PostgresServer): Promise<string | undefined> {
	return postgresState(postgres, IMPORT_POSITION_KEY);
}

function listCalls(sandbox: Sandbox): number {
	return sandbox.countCalls({ method: 'GET', pathname: LIST_PATH });
}

async function executions(rest: N8nRestClient, workflowId: string): Promise<ExecutionSummary[]> {
	return rest.listExecutions(workflowId);
}

function query(workflow: WorkflowFile, name: string): string {
	const node = workflow.json.nodes.find((n) => n.name === name);
	if (!node) throw new Error(`${workflow.file} has no node ${name}`);
	return String(node.parameters.query);
}

/** Starts by hand (Create Tables, Read Position) waiting for a lock. */
async function startsWaiting(postgres: PostgresServer): Promise<number> {
	const [row] = await postgres.query<{ waiting: number }>(
		"SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%CREATE TABLE IF NOT EXISTS st_import_pages%'",
	);
	return row.waiting;
}

/** A text literal, as the Postgres node binds a string parameter. */
const literal = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/**
 * The import's own CREATE and write statements, run in one transaction that is rolled back: from
 * position p1, the page p2 → p3 is saved before the page p1 → p2 (the chain starts the next page
 * before it writes its own, so a later page's save may come first). The position must stay at p1,
 * then move past both to p3, with no page left noted. Then p3 → done by a replaced run (written,
 * not noted: the position stays), then by the import's run.
 */
async function savePagesOutOfOrder(postgres: PostgresServer, workflow: WorkflowFile): Promise<string[]> {
	const creates = query(workflow, READ)
		.split('\n')
		.filter((line) => line.startsWith('CREATE TABLE'));
	const row = (id: string) => [{ ticket_id: id, subject: null, description: null, status: 'open', priority: null, customer_id: null, created_at: null, updated_at: '2026-01-01T00:00:00.000Z', updated_ms: Date.parse('2026-01-01T00:00:00.000Z') }];
	const save = (from: string, to: string, id: string, run = 'r1'): string => query(workflow, WRITE).replace(/\$(\d)/g, (_, n: string) => literal([JSON.stringify(row(id)), from, to, run][Number(n) - 1]));
	return postgres.script(
		[
			'BEGIN;',
			...creates,
			"INSERT INTO st_import_state (key, value) VALUES ('import_position', 'tickets:p1'), ('import_run', 'r1') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;",
			save('tickets:p2', 'tickets:p3', 'tkt_order_2'),
			save('tickets:p1', 'tickets:p2', 'tkt_order_1'),
			'SELECT count(*) FROM st_import_pages;',
			// A run replaced by a later start by hand: its page is written, but not noted.
			save('tickets:p3', 'done', 'tkt_order_3', 'r0'),
			'SELECT count(*) FROM st_import_pages;',
			save('tickets:p3', 'done', 'tkt_order_3'),
			'ROLLBACK;',
		].join('\n'),
	);
}

/** Runs the chained import by hand, stops it once after `stopAfter` list pages, and resumes it by two starts at once. */
export async function runChainedImport(
	rest: N8nRestClient,
	postgres: PostgresServer,
	sandbox: Sandbox,
	workflow: WorkflowFile,
	log: (line: string) => void,
	stopAfter = 8,
): Promise<ChainedImportFigures> {
	const savedOutOfOrder = await savePagesOutOfOrder(postgres, workflow);
	const expected = ['tickets:p1', 'tickets:p3', '0', 'tickets:p3', '0', 'done'];
	if (JSON.stringify(savedOutOfOrder) !== JSON.stringify(expected)) throw new Error(`pages saved out of order gave the positions ${JSON.stringify(savedOutOfOrder)}, not ${JSON.stringify(expected)}`);
	const started = Date.now();
	const callsBefore = listCalls(sandbox);
	const executionsBefore = new Set((await executions(rest, workflow.id)).map((e) => e.id));
	const newExecutions = async () => (await executions(rest, workflow.id)).filter((e) => !executionsBefore.has(e.id));

	await rest.runManually(workflow.id, TRIGGER);
	// After `stopAfter` pages, list answers say "more" without a cursor: the page being read then fails.
	await waitUntil(`${stopAfter} import pages`, () => (listCalls(sandbox) - callsBefore >= stopAfter ? true : undefined), WAIT_MS, { intervalMs: 50 });
	sandbox.setResponseShape({ hasMoreWithoutCursor: 'null' });
	let failed: ExecutionSummary;
	try {
		failed = await waitUntil(
			'the import to stop on the faulty page',
			async () => {
				const list = await newExecutions();
				const error = list.find((e) => isFinished(e) && e.status !== 'success');
				if (!error && (await position(postgres)) === 'done') throw new Error('the import finished before the faulty page: it never stopped');
				return error;
			},
			WAIT_MS,
			{ intervalMs: 500 },
		);
	} finally {
		sandbox.setResponseShape({});
	}
	const stoppedAtCall = listCalls(sandbox) - callsBefore;
	const stoppedAt = (await position(postgres)) ?? '(none)';
	if (!/^(tickets|customers):./.test(stoppedAt)) throw new Error(`after the stop the saved position is ${stoppedAt}, not a page in the middle`);
	const failure = `${failed.status} execution ${failed.id}`;
	log(`import stopped at list call ${stoppedAtCall} (${failure}); saved position ${stoppedAt.slice(0, 24)}…; running it again by hand`);

	// Run by hand twice at once: both starts wait on a lock of the state table, then go on together. The
	// second to take the run stops the first chain at its next page (without that: every page read twice).
	const state = await postgres.lockTable('st_import_state');
	try {
		for (const start of [1, 2]) {
			await rest.runManually(workflow.id, TRIGGER);
			await waitUntil(`start by hand ${start} to wait for the state table`, async () => ((await startsWaiting(postgres)) >= start ? true : undefined), WAIT_MS, { intervalMs: 100 });
		}
	} finally {
		await state.release();
	}
	log('import resumed by hand twice at once');
	await waitUntil(
		'the resumed import to finish (position done)',
		async () => {
			const list = await newExecutions();
			const errors = list.filter((e) => isFinished(e) && e.status !== 'success' && e.id !== failed.id);
			if (errors.length) throw new Error(`the resumed import failed: executions ${errors.map((e) => `${e.id} ${e.status}`).join(', ')}`);
			return (await position(postgres)) === 'done' && list.every(isFinished) ? true : undefined;
		},
		WAIT_MS,
		{ intervalMs: 500, seen: () => 'position not yet done' },
	);
	const kept = await newExecutions();
	const byStatus: Record<string, number> = {};
	for (const e of kept) byStatus[e.status] = (byStatus[e.status] ?? 0) + 1;
	const pagesNeeded = Math.ceil(sandbox.store.ticketCount / 100) + Math.ceil(sandbox.store.customerCount / 100);
	return {
		seconds: (Date.now() - started) / 1000,
		listCalls: listCalls(sandbox) - callsBefore,
		pagesNeeded,
		stoppedAtCall,
		stoppedAt,
		failure,
		savedOutOfOrder,
		executionsKept: { total: kept.length, byStatus },
	};
}
