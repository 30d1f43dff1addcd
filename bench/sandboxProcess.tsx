/**
 * The sandbox in a process of its own (`build/test/sandbox/cli.js`), so its CPU and memory are not
 * counted on either side of a measurement. Driven over its unauthenticated admin surface.
 */
import { spawn } from 'node:child_process';

import { repoPath } from '../test/harness/repoPath';
import type { FaultOptions, RequestLogEntry } from '../test/sandbox';

/** Where a measurement sends its signed requests: the credential's fields. */
export type SignedTarget = { baseUrl: string; apiKey: string; apiSecret: string };

export interface SandboxProcess extends SignedTarget {
	target: SignedTarget;
	pid: number;
	clearLog(): Promise<void>;
	log(): Promise<RequestLogEntry[]>;
	setFaults(faults: FaultOptions): Promise<void>;
	/** SIGTERM, then waits for the exit (the CLI stops cleanly, so a CPU profile gets written). */
	stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;

/** `execArgv`: extra node flags for the sandbox process, e.g. `--cpu-prof`. */
export async function startSandboxProcess(options: { seed: number; execArgv?: string[] }): Promise<SandboxProcess> {
	const args = [...(options.execArgv ?? []), repoPath('build/test/sandbox/cli.js'), '--port', '0', '--seed', String(options.seed)];
	const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	// The CLI's start-up banner tells the base URL, key and secret.
	const target = await new Promise<SignedTarget>((resolve, reject) => {
		let text = '';
		const fail = (error: Error): void => {
			clearTimeout(timer);
			child.kill('SIGTERM');
			reject(error);
		};
		const timer = setTimeout(() => fail(new Error(`sandbox did not start within ${READY_TIMEOUT_MS} ms:\n${text}`)), READY_TIMEOUT_MS);
		const onExit = (code: number | null): void => fail(new Error(`sandbox exited (${code}) before it was ready:\n${text}`));
		child.once('exit', onExit);
		child.stdout.setEncoding('utf8');
		child.stdout.on('data', (chunk: string) => {
			text += chunk;
			const [baseUrl, apiKey, apiSecret] = [/base URL\s+(\S+)/, /API key\s+(\S+)/, /API secret\s+(\S+)/].map((pattern) => pattern.exec(text)?.[1]);
			if (!baseUrl || !apiKey || !apiSecret || !text.includes('Press Ctrl+C')) return;
			clearTimeout(timer);
			child.off('exit', onExit);
			child.stdout.removeAllListeners('data');
			child.stdout.resume();
			resolve({ baseUrl, apiKey, apiSecret });
		});
	});
	const admin = async (method: string, path: string, body?: unknown): Promise<unknown> => {
		const json = body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
		const response = await fetch(`${target.baseUrl}/__sandbox${path}`, { method, ...json });
		if (!response.ok) throw new Error(`sandbox admin ${method} ${path}: HTTP ${response.status} ${await response.text()}`);
		return response.status === 204 ? undefined : ((await response.json()) as { data: unknown }).data;
	};
	return {
		...target,
		target,
		pid: child.pid ?? 0,
		clearLog: async () => void (await admin('DELETE', '/log')),
		log: async () => (await admin('GET', '/log')) as RequestLogEntry[],
		setFaults: async (faults) => void (await admin('POST', '/faults', faults)),
		async stop() {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
			await exited;
		},
	};
}
