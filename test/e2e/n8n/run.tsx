import { spawn, type SpawnOptions } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface CommandResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	durationMs: number;
}

export interface RunOptions extends Pick<SpawnOptions, 'cwd' | 'env'> {
	/** Kill the command (and its process group) after this long; default 10 minutes. */
	timeoutMs?: number;
	/** Echo output to this process's stderr while it runs (long installs). */
	echo?: boolean;
}

/**
 * Runs a command to completion, collecting its output; never throws on a non-zero exit. Its stdout goes
 * to a file unless echoed: what a process writes to a pipe right before process.exit() is lost when
 * this side reads late (n8n execute prints its run, then exits), a file keeps it all.
 */
export function runCommand(command: string, args: string[], options: RunOptions = {}): Promise<CommandResult> {
	const started = Date.now();
	const outDir = options.echo ? undefined : mkdtempSync(path.join(tmpdir(), 'command-'));
	const outFile = outDir && path.join(outDir, 'stdout');
	return new Promise<CommandResult>((resolve, reject) => {
		const out = outFile ? openSync(outFile, 'w') : 'pipe';
		const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', out, 'pipe'], detached: true });
		if (typeof out === 'number') closeSync(out);
		const stdout: Buffer[] = [];
		const stderr: Buffer[] = [];
		child.stdout?.on('data', (chunk: Buffer) => {
			stdout.push(chunk);
			process.stderr.write(chunk);
		});
		child.stderr?.on('data', (chunk: Buffer) => {
			stderr.push(chunk);
			if (options.echo) process.stderr.write(chunk);
		});
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
				stdout: outFile ? readFileSync(outFile, 'utf8') : Buffer.concat(stdout).toString('utf8'),
				stderr: Buffer.concat(stderr).toString('utf8'),
				durationMs: Date.now() - started,
			});
		});
	}).finally(() => outDir && rmSync(outDir, { recursive: true, force: true }));
}

/** Like runCommand, but a non-zero exit is an error that carries the command's output. */
export async function runChecked(command: string, args: string[], options: RunOptions = {}): Promise<CommandResult> {
	const result = await runCommand(command, args, options);
	if (result.code !== 0) {
		const tail = (result.stdout + result.stderr).trim().split('\n').slice(-30).join('\n');
		throw new Error(`${command} ${args.join(' ')} exited with ${result.code ?? result.signal}:\n${tail}`);
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
