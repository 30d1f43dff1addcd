/**
 * Runs one TraversalJob in a fresh child process and counts, from the sandbox's own request
 * log, the calls the measured traversal made (the warm-up's are cleared before it starts).
 */
import path from 'node:path';

import { forkMeasuredChild, listCalls } from './measuredChild';
import type { TraversalFigures, TraversalJob } from './measureTraversal';
import type { SandboxProcess } from './sandboxProcess';

export interface Measurement extends TraversalFigures {
	/** GET /tickets answered 200, from the sandbox log. */
	calls: number;
	/** Every API request in the log (a retry or an error would show here). */
	requests: number;
	/** Sum of the sandbox's own time per request, from its log. */
	sandboxMs: number;
}

const CHILD_TIMEOUT_MS = 300_000;

export async function forkMeasurement(job: TraversalJob, sandbox: SandboxProcess, execArgv: string[] = []): Promise<Measurement> {
	const { figures, log } = await forkMeasuredChild<TraversalJob, TraversalFigures>(path.join(__dirname, 'measureTraversal.js'), job, sandbox, {
		execArgv,
		timeoutMs: CHILD_TIMEOUT_MS,
		label: `measurement of the ${job.side} side`,
	});
	return {
		...figures,
		calls: listCalls(log),
		requests: log.length,
		sandboxMs: log.reduce((sum, entry) => sum + entry.durationMs, 0),
	};
}
