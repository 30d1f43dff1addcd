import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

import { killGroup } from '../../n8n/run';

export interface ServiceOptions {
	name: string;
	command: string;
	args: string[];
	env?: NodeJS.ProcessEnv;
	cwd?: string;
	/** Where everything it prints goes, for reading after a failure. */
	logFile: string;
	/** Run as this user (the suite runs as root on CI; PostgreSQL refuses to run as root). */
	uid?: number;
	gid?: number;
	/** The signal that shuts it down cleanly; default SIGTERM. */
	stopSignal?: NodeJS.Signals;
}

/** A long-running child (a database, Redis, an n8n process) that the suite started and must stop. */
export type ServiceProcess = ReturnType<typeof startService>;

/** Every service started and not yet gone, in start order: what a Ctrl+C must stop. */
const live: Array<{ stop(): Promise<void> }> = [];

/** Stops every service still running, newest first (n8n before its database): the last line of defence on failure or a signal. */
export async function stopEveryService(): Promise<void> {
	for (let service = live.at(-1); service; service = live.at(-1)) {
		await service.stop();
		const index = live.indexOf(service);
		if (index !== -1) live.splice(index, 1);
	}
}

/** Runs each stop, last first, once; a stop that fails is logged and the rest still run. */
export async function stopInReverse(stops: Array<() => Promise<void>>): Promise<void> {
	for (const stop of stops.splice(0).reverse())
		await stop().catch((error: unknown) => console.log(`  could not stop: ${String(error)}`));
}

/** In its own process group, so stopping it stops what it started (n8n's task runners); output to a log file and memory. */
export function startService(options: ServiceOptions) {
	const log = createWriteStream(options.logFile, { flags: 'a' });
	const { cwd, env, uid, gid } = options;
	const child = spawn(options.command, options.args, {
		cwd,
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
		uid,
		gid,
	});
	if (child.pid === undefined)
		throw new Error(`could not start ${options.name} (${options.command})`);
	const pid = child.pid;
	let text = '';
	const listeners = new Set<() => void>();
	const onData = (chunk: Buffer): void => {
		text += chunk.toString('utf8');
		log.write(chunk);
		for (const listener of listeners) listener();
	};
	child.stdout?.on('data', onData);
	child.stderr?.on('data', onData);
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
		child.once('error', (error) => {
			text += `\n[${options.name}: ${error.message}]\n`;
			resolve({ code: null, signal: null });
		});
		child.once('exit', (code, signal) => resolve({ code, signal }));
	}).then((result) => {
		log.end();
		for (const listener of listeners) listener();
		return result;
	});
	let gone = false;
	void exited.then(() => (gone = true));

	/** Resolves once `line` appears in its output; rejects when it exits first or `timeoutMs` passes. */
	const waitForOutput = (line: string | RegExp, timeoutMs: number): Promise<void> =>
		new Promise((resolve, reject) => {
			const matches = (): boolean =>
				typeof line === 'string' ? text.includes(line) : line.test(text);
			const check = (): void => {
				if (matches()) finish();
				else if (gone)
					finish(
						new Error(`${options.name} exited before printing ${String(line)}:\n${tail(text)}`),
					);
			};
			const timer = setTimeout(
				() =>
					finish(
						new Error(
							`${options.name} did not print ${String(line)} within ${timeoutMs} ms:\n${tail(text)}`,
						),
					),
				timeoutMs,
			);
			const finish = (error?: Error): void => {
				clearTimeout(timer);
				listeners.delete(check);
				if (error) reject(error);
				else resolve();
			};
			listeners.add(check);
			check();
		});

	/** `signal`, then SIGKILL after `graceMs`; resolves once it is gone, its whole group with it. Idempotent. */
	const stop = async (
		signal: NodeJS.Signals = options.stopSignal ?? 'SIGTERM',
		graceMs = 30_000,
	): Promise<void> => {
		if (!gone) {
			killGroup(pid, signal);
			const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), graceMs);
			await exited;
			clearTimeout(timer);
		}
		killGroup(pid, 'SIGKILL');
	};

	const service = { name: options.name, pid, output: () => text, waitForOutput, stop };
	live.push(service);
	void exited.then(() => {
		const index = live.indexOf(service);
		if (index !== -1) live.splice(index, 1);
	});
	return service;
}

function tail(text: string, lines = 40): string {
	return text.split('\n').slice(-lines).join('\n');
}
