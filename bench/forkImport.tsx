/**
 * Runs one ImportJob in a fresh child process (bench/measureImport.tsx) and counts, from the
 * sandbox's own request log, the calls the measured import made (the warm-up's are cleared
 * before it starts).
 */
import path from 'node:path';

import { forkMeasuredChild, listCalls } from './measuredChild';
import type { ImportFigures, ImportJob } from './measureImport';
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

export async function forkImport(job: ImportJob, sandbox: SandboxProcess, options: ForkOptions = {}): Promise<ImportMeasurement> {
	const { figures, log } = await forkMeasuredChild<ImportJob, ImportFigures>(path.join(__dirname, 'measureImport.js'), job, sandbox, {
		execArgv: [...(job.heapCapMiB === undefined ? [] : [`--max-old-space-size=${job.heapCapMiB}`]), ...(options.execArgv ?? [])],
		timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		label: `${job.mode} of ${job.tickets} tickets`,
	});
	return { ...figures, calls: listCalls(log), requests: log.length };
}
