/**
 * Imports every ticket of a sandbox in one of the three ways, through n8n-core's WorkflowExecute
 * (test/harness runWorkflow), with the written tickets counted by a TicketTally.
 */
import type { ICredentialDataDecryptedObject, IRunData } from 'n8n-workflow';

import { runWorkflow, type WorkflowRun } from '../test/harness';
import { addNodeTypes } from '../test/harness/extraNodeTypes';
import { ExecuteWorkflowTrigger } from './executeWorkflowTrigger';
import { executeSubWorkflow } from './executeWorkflowNode';
import {
	CALL_NODE,
	loopInOneExecution,
	PAGE_NODE,
	pagePerExecution,
	RETURN_ALL_NODE,
	RETURN_CURSOR_NODE,
	returnAll,
	SUB_WORKFLOW_TRIGGER,
	subWorkflowParent,
	type ImportMode,
} from './importWorkflows';
import { tallyingWriter } from './tallyingWriter';
import type { TicketTally } from './ticketTally';

export const PAGE_SIZE = 100;

export type Credentials = Record<string, ICredentialDataDecryptedObject>;

export interface ImportOutcome {
	/** Workflow executions started (a sub-workflow's count too). */
	executions: number;
	/** Runs of the node that reads the tickets (one per page in page modes, 1 for Return All). */
	nodeRuns: number;
	/** The last execution, still held (as n8n holds an execution's data until it has been saved). */
	last: WorkflowRun;
}

/**
 * Makes the example workflows' n8n-nodes-base nodes write into `tally` (see tallyingWriter), and
 * the parent's Execute Workflow node run the one-page sub-workflow with these credentials.
 */
export async function registerImportNodes(tally: TicketTally, credentials: Credentials): Promise<void> {
	await addNodeTypes({
		'n8n-nodes-base.noOp': tallyingWriter(tally),
		'n8n-nodes-base.executeWorkflowTrigger': new ExecuteWorkflowTrigger(),
		'n8n-nodes-base.executeWorkflow': executeSubWorkflow(pagePerExecution(), SUB_WORKFLOW_TRIGGER, credentials),
	});
}

function failed(run: WorkflowRun): Error | undefined {
	return run.error ? new Error(`workflow failed: ${run.error.message}`) : undefined;
}

/**
 * Page per execution: runs the one-page sub-workflow, reads `has_more`/`next_cursor` from what it
 * hands back (its Return Cursor node) and starts the next execution with that
 * cursor, until the last page or `maxExecutions`. Each execution's data is dropped once its
 * cursor is read, as n8n drops a finished execution once it is saved.
 */
export async function runPages(credentials: Credentials, maxExecutions: number): Promise<ImportOutcome & { finished: boolean }> {
	const workflow = pagePerExecution();
	let cursor: string | undefined;
	let last: WorkflowRun | undefined;
	let executions = 0;
	while (executions < maxExecutions) {
		last = await runWorkflow(workflow, credentials, {
			mode: 'integrated',
			nodeName: SUB_WORKFLOW_TRIGGER,
			data: [[{ json: cursor === undefined ? {} : { next_cursor: cursor } }]],
		});
		executions++;
		const error = failed(last);
		if (error) throw error;
		const page = last.output(RETURN_CURSOR_NODE)[0]?.json;
		if (!page) throw new Error(`execution ${executions} returned no cursor`);
		if (page.has_more !== true) return { executions, nodeRuns: executions, last, finished: true };
		cursor = String(page.next_cursor);
	}
	if (!last) throw new Error('maxExecutions must be at least 1');
	return { executions, nodeRuns: executions, last, finished: false };
}

/** Every page, one execution each; a service that still has more after ⌈n/100⌉ + 2 pages is an error, not a loop. */
async function importPagePerExecution(credentials: Credentials, tickets: number): Promise<ImportOutcome> {
	const maxExecutions = Math.ceil(tickets / PAGE_SIZE) + 2;
	const outcome = await runPages(credentials, maxExecutions);
	if (!outcome.finished) throw new Error(`still more pages after ${maxExecutions} executions`);
	return outcome;
}

const IN_ONE_EXECUTION = {
	'sub-workflow-per-page': { workflow: subWorkflowParent, pageNode: CALL_NODE },
	'loop-in-one-execution': { workflow: loopInOneExecution, pageNode: PAGE_NODE },
	'return-all': { workflow: returnAll, pageNode: RETURN_ALL_NODE },
} as const;

/** Runs one workflow whose single execution reads every ticket: the parent, the shipped loop, or Return All. */
async function importInOneExecution(mode: keyof typeof IN_ONE_EXECUTION, credentials: Credentials): Promise<ImportOutcome> {
	const { workflow, pageNode } = IN_ONE_EXECUTION[mode];
	const last = await runWorkflow(workflow(), credentials);
	const error = failed(last);
	if (error) throw error;
	const runData: IRunData = last.run?.data.resultData.runData ?? {};
	const nodeRuns = (runData[pageNode] ?? []).length;
	return { executions: mode === 'sub-workflow-per-page' ? 1 + nodeRuns : 1, nodeRuns, last };
}

export function importTickets(mode: ImportMode, credentials: Credentials, tickets: number): Promise<ImportOutcome> {
	if (mode === 'page-per-execution') return importPagePerExecution(credentials, tickets);
	return importInOneExecution(mode, credentials);
}

/**
 * Size of an execution's run data as JSON, summed over every node run (each stringified on its
 * own, so a huge execution does not need one huge string): about what n8n writes to its
 * database when it saves the execution.
 */
export function runDataJsonBytes(run: WorkflowRun): number {
	let bytes = 0;
	for (const runs of Object.values(run.run?.data.resultData.runData ?? {})) {
		for (const task of runs) bytes += Buffer.byteLength(JSON.stringify(task));
	}
	return bytes;
}
