/**
 * The one protocol between the bench and a measurement child, both sides. Every measurement (a
 * traversal, a per-item run, an import, a profiled run) runs alone in a fresh child of this file,
 * so its peak RSS (`resourceUsage().maxRSS`) belongs to it and nothing else: the parent sends the
 * job; the child loads and warms up, runs a full GC, reads its memory and says `warm`; the parent
 * clears the sandbox log (and may switch faults on) and says `go`; the child times the measured
 * part, runs a full GC, reads the heap and reports `done` with the figures; the parent reads the
 * sandbox log of exactly the measured part.
 */
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

import { isolateUserFolder } from '../test/harness/isolateUserFolder';
import type { RequestLogEntry } from '../test/sandbox';
import type { SandboxProcess } from './sandboxProcess';

/** A measurement, made in the child for one job: `run` returns how to read its own figures once the heap was read. */
export interface ChildTask<Figures> {
	warmUp(): Promise<void>;
	run(): Promise<() => Figures>;
}

const TASKS = {
	traversal: async () => (await import('./traversal')).traversalTask,
	items: async () => (await import('./items')).itemsTask,
	import: async () => (await import('./imports')).importTask,
};
export type TaskKind = keyof typeof TASKS;

/**
 * Bytes: peak RSS of the child's whole life; RSS, peak RSS and heap before the measured part (after
 * the warm-up); heap after it and a full GC, its result still held.
 */
export type ProcessFigures = Record<'wallMs' | 'cpuMs' | 'maxRssBytes' | 'rssBeforeBytes' | 'maxRssBeforeBytes' | 'heapBeforeBytes' | 'heapAfterBytes', number>;

/** `profilePath`: write a CPU profile of exactly the measured part there. */
type ParentMessage = { type: 'job'; kind: TaskKind; job: unknown; profilePath?: string } | { type: 'go' };
type ChildMessage = { type: 'warm' } | { type: 'done'; figures: ProcessFigures } | { type: 'failed'; error: string };

/** `execArgv`: node flags besides `--expose-gc`; `beforeGo`: after the warm-up's log was cleared, e.g. switch latency or a rate limit on. */
export type ChildOptions = { label: string; execArgv?: string[]; timeoutMs?: number; profilePath?: string; beforeGo?: () => Promise<void> };

/** Parent side: runs `job` in a fresh child; resolves once the child has exited, with the sandbox log of the measured part. */
export async function measureInChild<Figures>(kind: TaskKind, job: unknown, sandbox: SandboxProcess, options: ChildOptions): Promise<ProcessFigures & Figures & { log: RequestLogEntry[] }> {
	const child = fork(path.join(__dirname, 'child.js'), [], { execArgv: ['--expose-gc', ...(options.execArgv ?? [])], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(String(code ?? signal))));
	const timeoutMs = options.timeoutMs ?? 600_000;
	let timedOut = false;
	const timer = setTimeout(() => (timedOut = child.kill('SIGKILL')), timeoutMs);
	const next = async (type: 'warm' | 'done'): Promise<ChildMessage> => {
		const gone = exited.then((how) => ({ type: 'failed', error: timedOut ? `timed out after ${timeoutMs} ms` : `child exited early (${how})` }) as const);
		const message = await Promise.race([new Promise<ChildMessage>((resolve) => child.once('message', resolve)), gone]);
		if (message.type !== type) throw new Error(`${options.label}: ${message.type === 'failed' ? message.error : `expected ${type}`}`);
		return message;
	};
	try {
		child.send({ type: 'job', kind, job, profilePath: options.profilePath } satisfies ParentMessage);
		await next('warm');
		await sandbox.clearLog();
		await options.beforeGo?.();
		child.send({ type: 'go' } satisfies ParentMessage);
		const done = (await next('done')) as Extract<ChildMessage, { type: 'done' }>;
		const log = await sandbox.log();
		// Resolved once the child has gone, so it never overlaps with the next measurement.
		await exited;
		return { ...(done.figures as ProcessFigures & Figures), log };
	} finally {
		clearTimeout(timer);
		if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
	}
}

/** Child side: a full garbage collection (the child runs with --expose-gc). */
export function fullGc(): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('run the measurement child with --expose-gc');
	gc();
	gc();
}

const toParent = (message: ChildMessage): Promise<void> =>
	new Promise((resolve, reject) => process.send?.(message, undefined, {}, (error) => (error ? reject(error) : resolve())));
const fromParent = (): Promise<ParentMessage> => new Promise((resolve) => process.once('message', (message: ParentMessage) => resolve(message)));
const post = <T,>(session: Session, method: string): Promise<T> =>
	new Promise((resolve, reject) => session.post(method, (error, result) => (error ? reject(error) : resolve(result as T))));

async function childMain(): Promise<void> {
	const first = await fromParent();
	if (first.type !== 'job') throw new Error('expected a job');
	const { kind, job, profilePath } = first;
	isolateUserFolder();
	const task = (await TASKS[kind]())(job as never) as ChildTask<object>;
	await task.warmUp();
	fullGc();
	const rssBeforeBytes = process.memoryUsage().rss;
	const maxRssBeforeBytes = process.resourceUsage().maxRSS * 1024;
	const heapBeforeBytes = process.memoryUsage().heapUsed;
	await toParent({ type: 'warm' });
	if ((await fromParent()).type !== 'go') throw new Error('expected go');

	// The inspector, not --cpu-prof: only the measured part, not the loading and warm-up.
	const session = profilePath ? new Session() : undefined;
	if (session) {
		session.connect();
		await post(session, 'Profiler.enable');
		await post(session, 'Profiler.start');
	}
	const cpuStart = process.cpuUsage();
	const started = process.hrtime.bigint();
	const own = await task.run();
	const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
	const cpu = process.cpuUsage(cpuStart);
	if (session && profilePath) writeFileSync(profilePath, JSON.stringify((await post<{ profile: unknown }>(session, 'Profiler.stop')).profile));
	session?.disconnect();
	fullGc();
	const heapAfterBytes = process.memoryUsage().heapUsed;
	const maxRssBytes = process.resourceUsage().maxRSS * 1024;
	const figures = { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, maxRssBytes, rssBeforeBytes, maxRssBeforeBytes, heapBeforeBytes, heapAfterBytes };
	await toParent({ type: 'done', figures: { ...figures, ...own() } });
	process.disconnect();
}

if (require.main === module) {
	childMain().catch(async (error: unknown) => {
		await toParent({ type: 'failed', error: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error) }).catch(() => undefined);
		process.exitCode = 1;
		process.disconnect?.();
	});
}

/** The sides of a round in the order of that round: rotated, so no side always runs first or right after another. */
export function rotated<T>(sides: T[], round: number): T[] {
	const shift = (round - 1) % sides.length;
	return [...sides.slice(shift), ...sides.slice(0, shift)];
}

/** GET /tickets answered 200 in a sandbox log: the list calls made. */
export const listCalls = (log: RequestLogEntry[]): number =>
	log.filter((entry) => entry.method === 'GET' && entry.pathname === '/api/v1/external/tickets' && entry.status === 200).length;
