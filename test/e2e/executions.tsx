import { parseExecutionData } from './n8n/executionData';
import type { N8nInstall } from './n8n/n8nInstall';
import type { ExecutionSummary, N8nRestClient } from './n8n/restClient';
import type { PrintedRun } from './runData';
import { waitUntil } from '../harness/wait';

const UNFINISHED = ['new', 'running', 'waiting'];

export function isFinished(execution: ExecutionSummary): boolean {
	return !UNFINISHED.includes(execution.status);
}

/** Lists the workflow's executions in start order (n8n's ids count up) until `done` accepts them; bounded by `timeoutMs`. */
export async function waitForExecutions(
	rest: N8nRestClient,
	workflowId: string,
	what: string,
	done: (executions: ExecutionSummary[]) => boolean | Promise<boolean>,
	timeoutMs: number,
	intervalMs = 500,
): Promise<ExecutionSummary[]> {
	let last: ExecutionSummary[] = [];
	return waitUntil(
		what,
		async () => {
			last = (await rest.listExecutions(workflowId)).sort((a, b) => Number(a.id) - Number(b.id));
			return (await done(last)) ? last : undefined;
		},
		timeoutMs,
		{ intervalMs, seen: () => last },
	);
}

/** One execution's run data, as the editor's execution view gets it. */
export async function executionRun(
	rest: N8nRestClient,
	install: N8nInstall,
	id: string,
): Promise<PrintedRun> {
	const { status, data } = await rest.getExecution(id);
	return { status, data: parseExecutionData(install, data) as PrintedRun['data'] };
}

/** The editor's "Execute workflow" from `trigger`, awaited: the finished execution and its run data. */
export async function runFromEditor(
	rest: N8nRestClient,
	install: N8nInstall,
	workflowId: string,
	trigger: string,
	options: { pinData?: Record<string, Array<{ json: unknown }>>; timeoutMs?: number } = {},
): Promise<{ execution: ExecutionSummary; run: PrintedRun }> {
	const id = await rest.runManually(workflowId, trigger, options.pinData);
	// n8n 1.x may list a just-finished execution twice (running in memory, finished in the database).
	const finished = (all: ExecutionSummary[]) => all.find((e) => e.id === id && isFinished(e));
	const [what, timeoutMs] = [`the run from ${trigger}`, options.timeoutMs ?? 60_000];
	const done = (all: ExecutionSummary[]) => finished(all) !== undefined;
	const executions = await waitForExecutions(rest, workflowId, what, done, timeoutMs);
	const run = await executionRun(rest, install, id);
	return { execution: finished(executions) as ExecutionSummary, run };
}
