/**
 * Runs one TraversalJob in a fresh child process and counts, from the sandbox's own request
 * log, the calls the measured traversal made (the warm-up's are cleared before it starts).
 */
import { fork } from 'node:child_process';
import path from 'node:path';

import type { ChildMessage, ParentMessage, TraversalFigures, TraversalJob } from './measureTraversal';
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

export function forkMeasurement(job: TraversalJob, sandbox: SandboxProcess, execArgv: string[] = []): Promise<Measurement> {
	const child = fork(path.join(__dirname, 'measureTraversal.js'), [], {
		execArgv: ['--expose-gc', ...execArgv],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const send = (message: ParentMessage): boolean => child.send(message);
	return new Promise<Measurement>((resolve, reject) => {
		let settled = false;
		const timer = setTimeout(() => finish(new Error(`measurement of ${job.side} timed out`)), CHILD_TIMEOUT_MS);
		function finish(error: Error | undefined, value?: Measurement): void {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			if (error) {
				if (child.exitCode === null) child.kill('SIGKILL');
				reject(error);
				return;
			}
			// Resolve once the child has gone, so it never overlaps with the next measurement.
			if (child.exitCode !== null || child.signalCode !== null) resolve(value as Measurement);
			else child.once('exit', () => resolve(value as Measurement));
		}
		let reported = false;
		// After `done` the child exits on its own while the sandbox log is still being read.
		child.on('exit', (code, signal) => {
			if (!reported) finish(new Error(`measurement child exited early (${code ?? signal})`));
		});
		child.on('message', (message: ChildMessage) => {
			void (async () => {
				if (message.type === 'failed') return finish(new Error(`${job.side} side failed: ${message.error}`));
				if (message.type === 'warm') {
					await sandbox.clearLog();
					send({ type: 'go' });
					return;
				}
				reported = true;
				const log = await sandbox.log();
				const listCalls = log.filter((e) => e.method === 'GET' && e.pathname === '/api/v1/external/tickets' && e.status === 200);
				finish(undefined, {
					...message.figures,
					calls: listCalls.length,
					requests: log.length,
					sandboxMs: log.reduce((sum, e) => sum + e.durationMs, 0),
				});
			})().catch((error: unknown) => finish(error as Error));
		});
		send({ type: 'job', job });
	});
}
