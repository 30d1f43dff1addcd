import { spawn, type SpawnOptions } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
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
