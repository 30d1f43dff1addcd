import { spawn, type SpawnOptions } from 'node:child_process';

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

/** Runs a command to completion, collecting its output; never throws on a non-zero exit. */
export function runCommand(command: string, args: string[], options: RunOptions = {}): Promise<CommandResult> {
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
		const stdout: Buffer[] = [];
		const stderr: Buffer[] = [];
		child.stdout?.on('data', (chunk: Buffer) => {
			stdout.push(chunk);
			if (options.echo) process.stderr.write(chunk);
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
				stdout: Buffer.concat(stdout).toString('utf8'),
				stderr: Buffer.concat(stderr).toString('utf8'),
				durationMs: Date.now() - started,
			});
		});
	});
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
