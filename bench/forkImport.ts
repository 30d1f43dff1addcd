/**
 * Runs one ImportJob in a fresh child process (bench/measureImport.ts) and counts, from the
 * sandbox's own request log, the calls the measured import made (the warm-up's are cleared
 * before it starts).
 */
import { fork } from 'node:child_process';
import path from 'node:path';

import type { ImportChildMessage, ImportFigures, ImportJob, ImportParentMessage } from './measureImport';
import type { SandboxProcess } from './sandboxProcess';

export interface ImportMeasurement extends ImportFigures {
	/** GET /tickets answered 200, from the sandbox log. */
	calls: number;
	/** Every API request in the log (a retry or an error would show here). */
	requests: number;
}

export interface ForkOptions {
	/** Extra node flags for the child. */
	execArgv?: string[];
	timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 480_000;

export function forkImport(job: ImportJob, sandbox: SandboxProcess, options: ForkOptions = {}): Promise<ImportMeasurement> {
	const child = fork(path.join(__dirname, 'measureImport.js'), [], {
		execArgv: ['--expose-gc', ...(job.heapCapMiB === undefined ? [] : [`--max-old-space-size=${job.heapCapMiB}`]), ...(options.execArgv ?? [])],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const send = (message: ImportParentMessage): boolean => child.send(message);
	return new Promise<ImportMeasurement>((resolve, reject) => {
		let settled = false;
		const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
		const timer = setTimeout(() => finish(new Error(`${job.mode} of ${job.tickets} tickets timed out after ${timeoutMs} ms`)), timeoutMs);
		function finish(error: Error | undefined, value?: ImportMeasurement): void {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			if (error) {
				if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
				reject(error);
				return;
			}
			// Resolve once the child has gone, so it never overlaps with the next measurement.
			if (child.exitCode !== null || child.signalCode !== null) resolve(value as ImportMeasurement);
			else child.once('exit', () => resolve(value as ImportMeasurement));
		}
		let reported = false;
		child.on('exit', (code, signal) => {
			if (!reported) finish(new Error(`${job.mode} child exited early (${code ?? signal})`));
		});
		child.on('message', (message: ImportChildMessage) => {
			void (async () => {
				if (message.type === 'failed') return finish(new Error(`${job.mode} of ${job.tickets} tickets failed: ${message.error}`));
				if (message.type === 'warm') {
					await sandbox.clearLog();
					send({ type: 'go' });
					return;
				}
				reported = true;
				const log = await sandbox.log();
				const listCalls = log.filter((e) => e.method === 'GET' && e.pathname === '/api/v1/external/tickets' && e.status === 200);
				finish(undefined, { ...message.figures, calls: listCalls.length, requests: log.length });
			})().catch((error: unknown) => finish(error as Error));
		});
		send({ type: 'job', job });
	});
}
