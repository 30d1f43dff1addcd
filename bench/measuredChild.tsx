/**
 * The protocol between the bench and a measurement child process, both sides: the parent sends a
 * job; the child loads and warms up, says `warm`; the parent clears the sandbox log and says `go`;
 * the child measures and reports `done` (or `failed`); the parent reads the sandbox log of exactly
 * the measured part. One child per measurement, so peak RSS belongs to that measurement alone.
 */
import { fork } from 'node:child_process';

import type { RequestLogEntry } from '../test/sandbox';
import type { SandboxProcess } from './sandboxProcess';

export type ChildMessage<Figures> = { type: 'warm' } | { type: 'done'; figures: Figures } | { type: 'failed'; error: string };
export type ParentMessage<Job> = { type: 'job'; job: Job } | { type: 'go' };

export interface ChildRun<Figures> {
	figures: Figures;
	/** The sandbox's request log of the measured part (the warm-up's requests were cleared). */
	log: RequestLogEntry[];
}

export interface ChildOptions {
	/** Node flags for the child (`--expose-gc` is always given). */
	execArgv: string[];
	timeoutMs: number;
	/** Names the measurement in errors. */
	label: string;
	/** Runs after the warm-up's log was cleared, before `go`: e.g. switch latency or a rate limit on. */
	beforeGo?: () => Promise<void>;
}

/** Parent side: runs `job` in a fresh child of `script` and resolves once the child has exited. */
export function forkMeasuredChild<Job, Figures>(script: string, job: Job, sandbox: SandboxProcess, options: ChildOptions): Promise<ChildRun<Figures>> {
	const child = fork(script, [], { execArgv: ['--expose-gc', ...options.execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	const send = (message: ParentMessage<Job>): boolean => child.send(message);
	return new Promise<ChildRun<Figures>>((resolve, reject) => {
		let settled = false;
		let reported = false;
		const timer = setTimeout(() => finish(new Error(`${options.label} timed out after ${options.timeoutMs} ms`)), options.timeoutMs);
		function finish(error: Error | undefined, value?: ChildRun<Figures>): void {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			if (error) {
				if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
				reject(error);
				return;
			}
			// Resolve once the child has gone, so it never overlaps with the next measurement.
			if (child.exitCode !== null || child.signalCode !== null) resolve(value as ChildRun<Figures>);
			else child.once('exit', () => resolve(value as ChildRun<Figures>));
		}
		// After `done` the child exits on its own while the sandbox log is still being read.
		child.on('exit', (code, signal) => {
			if (!reported) finish(new Error(`${options.label}: child exited early (${code ?? signal})`));
		});
		child.on('message', (message: ChildMessage<Figures>) => {
			void (async () => {
				if (message.type === 'failed') return finish(new Error(`${options.label} failed: ${message.error}`));
				if (message.type === 'warm') {
					await sandbox.clearLog();
					await options.beforeGo?.();
					send({ type: 'go' });
					return;
				}
				reported = true;
				finish(undefined, { figures: message.figures, log: await sandbox.log() });
			})().catch((error: unknown) => finish(error as Error));
		});
		send({ type: 'job', job });
	});
}

/** Child side: a full garbage collection (the child runs with --expose-gc). */
export function fullGc(): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('run the measurement child with --expose-gc');
	gc();
	gc();
}

/** Child side: one message to the parent, resolved once it was handed over. */
export function sendToParent<Figures>(message: ChildMessage<Figures>): Promise<void> {
	return new Promise((resolve, reject) => process.send?.(message, undefined, {}, (error) => (error ? reject(error) : resolve())));
}

/** Child side: the parent's next message. */
export function nextParentMessage<Job>(): Promise<ParentMessage<Job>> {
	return new Promise((resolve) => process.once('message', (message: ParentMessage<Job>) => resolve(message)));
}

/** GET /tickets answered 200 in a sandbox log: the list calls a traversal made. */
export function listCalls(log: RequestLogEntry[]): number {
	return log.filter((entry) => entry.method === 'GET' && entry.pathname === '/api/v1/external/tickets' && entry.status === 200).length;
}

/** Child side: runs the child's main; a failure is reported to the parent, and the child exits. */
export function runChildMain(main: () => Promise<void>): void {
	main().catch(async (error: unknown) => {
		await sendToParent({ type: 'failed', error: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error) }).catch(() => undefined);
		process.exitCode = 1;
		process.disconnect?.();
	});
}
