/**
 * examples/large-account-import-postgres.json in real n8n: started by hand, each execution reads one
 * page, writes it, saves the next position in st_import_state and starts the next execution. Once
 * during the run one list page fails in a way the node does not retry (the service says there is
 * more but gives no cursor): the chain stops there, the position stays at the last page written,
 * and running the workflow by hand again continues from it until the position is `done`.
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
	/** The import's executions n8n kept: the two started by hand and the failed one (successful pages are not kept). */
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

/** Runs the chained import by hand, stops it once after `stopAfter` list pages, and resumes it. */
export async function runChainedImport(
	rest: N8nRestClient,
	postgres: PostgresServer,
	sandbox: Sandbox,
	workflow: WorkflowFile,
	log: (line: string) => void,
	stopAfter = 8,
): Promise<ChainedImportFigures> {
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

	await rest.runManually(workflow.id, TRIGGER);
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
		executionsKept: { total: kept.length, byStatus },
	};
}
