/**
 * The parent side of the one protocol between the bench and a measurement child (child.tsx): every
 * measurement runs alone in a fresh child, so its peak RSS (`resourceUsage().maxRSS`) is its own.
 */
import { fork } from 'node:child_process';
import path from 'node:path';

import type { FaultOptions, RequestLogEntry } from '../sandbox';
import { sandboxAdmin, type SignedTarget } from './sandboxProcess';

/** A measurement, made in the child for one job: `run` returns how to read its own figures once the heap was read. */
export interface ChildTask<Figures> {
	warmUp(): Promise<void>;
	run(): Promise<() => Figures>;
}

export type TaskKind = 'traversal' | 'items' | 'import';

/**
 * Bytes: peak RSS of the child's whole life; RSS, peak RSS and heap before the measured part (after
 * the warm-up); heap after it and a full GC, its result still held. `busyMs`: how long the main
 * thread was not waiting for I/O during the measured part (event-loop utilisation).
 */
export type ProcessFigures = Record<
	| 'wallMs'
	| 'cpuMs'
	| 'busyMs'
	| 'maxRssBytes'
	| 'rssBeforeBytes'
	| 'maxRssBeforeBytes'
	| 'heapBeforeBytes'
	| 'heapAfterBytes',
	number
>;

/** `faults`: on for the measured part only, e.g. latency or a rate limit. */
export type Job = { kind: TaskKind; job: { target: SignedTarget }; faults?: FaultOptions };
export type Answer = { figures: ProcessFigures; log: RequestLogEntry[] } | { error: string };

/** `execArgv`: node flags besides `--expose-gc`. */
export type ChildOptions = {
	label: string;
	execArgv?: string[];
	timeoutMs?: number;
	faults?: FaultOptions;
};

/** Parent side: runs `job` in a fresh child; resolves once the child has exited. */
export async function measureInChild<Figures>(
	kind: TaskKind,
	job: { target: SignedTarget },
	options: ChildOptions,
): Promise<ProcessFigures & Figures & { log: RequestLogEntry[] }> {
	const child = fork(path.join(__dirname, 'child.js'), [], {
		execArgv: ['--expose-gc', ...(options.execArgv ?? [])],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const timeoutMs = options.timeoutMs ?? 600_000;
	const answered = new Promise<Answer | undefined>((resolve) => child.once('message', resolve));
	const exited = new Promise<string>((resolve) =>
		child.once('exit', (code, signal) => resolve(String(code ?? signal))),
	);
	const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
	try {
		child.send({ kind, job, faults: options.faults } satisfies Job);
		const answer = await Promise.race([answered, exited.then(() => undefined)]);
		const how = await exited; // never overlaps with the next measurement
		if (!answer || 'error' in answer)
			throw new Error(
				`${options.label}: ${answer?.error ?? `child exited (${how}) without an answer; time limit ${timeoutMs} ms`}`,
			);
		return { ...(answer.figures as ProcessFigures & Figures), log: answer.log };
	} finally {
		clearTimeout(timer);
		if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
		if (options.faults) await sandboxAdmin(job.target.baseUrl).setFaults({});
	}
}

/** Child side: a full garbage collection (the child runs with --expose-gc). */
export function fullGc(): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('run the measurement child with --expose-gc');
	gc();
	gc();
}

/** The sides of a round in the order of that round: rotated, so no side always runs first or right after another. */
export function rotated<T>(sides: T[], round: number): T[] {
	const shift = (round - 1) % sides.length;
	return [...sides.slice(shift), ...sides.slice(0, shift)];
}

/** GET /tickets answered 200 in a sandbox log: the list calls made. */
export const listCalls = (log: RequestLogEntry[]): number =>
	log.filter(
		(entry) =>
			entry.method === 'GET' &&
			entry.pathname === '/api/v1/external/tickets' &&
			entry.status === 200,
	).length;
