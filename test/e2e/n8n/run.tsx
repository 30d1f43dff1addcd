import { spawn, type SpawnOptions } from 'node:child_process';
import { closeSync, createWriteStream, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface CommandResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

/** `timeoutMs` (default 10 minutes) kills the command and its process group. */
export interface RunOptions extends Pick<SpawnOptions, 'cwd' | 'env'> {
	timeoutMs?: number;
}

// Runs a command to completion, collecting its output; never throws on a non-zero exit. Its stdout goes to a file: what a
// process writes to a pipe right before process.exit() is lost when this side reads late (n8n execute prints its run, then exits).
export function runCommand(
	command: string,
	args: string[],
	options: RunOptions = {},
): Promise<CommandResult> {
	const outDir = mkdtempSync(path.join(tmpdir(), 'command-'));
	const outFile = path.join(outDir, 'stdout');
	return new Promise<CommandResult>((resolve, reject) => {
		const out = openSync(outFile, 'w');
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env,
			stdio: ['ignore', out, 'pipe'],
			detached: true,
		});
		closeSync(out);
		const stderr: Buffer[] = [];
		child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
		const timer = setTimeout(() => {
			if (child.pid) killGroup(child.pid, 'SIGKILL');
		}, options.timeoutMs ?? 600_000);
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolve({
				code,
				signal,
				stdout: readFileSync(outFile, 'utf8'),
				stderr: Buffer.concat(stderr).toString('utf8'),
			});
		});
	}).finally(() => rmSync(outDir, { recursive: true, force: true }));
}

/** Like runCommand, but a non-zero exit is an error that carries the command's output. */
export async function runChecked(
	command: string,
	args: string[],
	options: RunOptions = {},
): Promise<CommandResult> {
	const result = await runCommand(command, args, options);
	if (result.code !== 0) {
		const tail = (result.stdout + result.stderr).trim().split('\n').slice(-30).join('\n');
		throw new Error(
			`${command} ${args.join(' ')} exited with ${result.code ?? result.signal}:\n${tail}`,
		);
	}
	return result;
}

/** Signals a whole process group (the command and whatever it started), ignoring a group already gone. */
export function killGroup(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pid, signal);
	} catch {
		// Already exited.
	}
}

/** A long-running child (a database, Redis, an n8n process) that its starter must stop. */
export interface ProcessOptions {
	name: string;
	command: string;
	args: string[];
	env?: NodeJS.ProcessEnv;
	cwd?: string;
	/** Where everything it prints goes, for reading after a failure. */
	logFile?: string;
	/** Copies what it prints to this process's stderr. */
	echo?: boolean;
	/** Run as this user (the suite runs as root on CI; PostgreSQL refuses to run as root). */
	uid?: number;
	gid?: number;
	/** The signal that shuts it down cleanly; default SIGTERM. */
	stopSignal?: NodeJS.Signals;
}

/** In its own process group, so stopping it stops what it started (n8n's task runners); output to memory, a log file, stderr. */
export function startProcess(options: ProcessOptions) {
	const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
	const { cwd, env, uid, gid } = options;
	const stdio: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];
	const child = spawn(options.command, options.args, { cwd, env, uid, gid, stdio, detached: true });
	if (child.pid === undefined)
		throw new Error(`could not start ${options.name} (${options.command})`);
	const pid = child.pid;
	let text = '';
	const listeners = new Set<() => void>();
	const onData = (chunk: Buffer): void => {
		text += chunk.toString('utf8');
		log?.write(chunk);
		if (options.echo) process.stderr.write(chunk);
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
		log?.end();
		for (const listener of listeners) listener();
		return result;
	});
	let gone = false;
	void exited.then(() => (gone = true));

	/** Resolves once `line` appears in its output; rejects when it exits first or `timeoutMs` passes. */
	const waitForOutput = (line: string | RegExp, timeoutMs: number): Promise<void> =>
		new Promise((resolve, reject) => {
			const fail = (why: string) =>
				finish(new Error(`${options.name} ${why}:\n${text.split('\n').slice(-40).join('\n')}`));
			const check = (): void => {
				if (typeof line === 'string' ? text.includes(line) : line.test(text)) finish();
				else if (gone) fail(`exited before printing ${String(line)}`);
			};
			const timer = setTimeout(
				() => fail(`did not print ${String(line)} within ${timeoutMs} ms`),
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

	return { name: options.name, pid, exited, output: () => text, waitForOutput, stop };
}
