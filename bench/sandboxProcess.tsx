/**
 * The sandbox in a process of its own (`build/test/sandbox/cli.js`), so its CPU and memory are
 * not counted on either side of a measurement. Driven over its unauthenticated admin surface.
 */
import { type ChildProcess, spawn } from 'node:child_process';

import { repoPath } from '../test/harness/repoPath';
import type { FaultOptions, RequestLogEntry } from '../test/sandbox';

export interface SandboxProcessOptions {
	seed: number;
	/** Extra node flags for the sandbox process, e.g. `--cpu-prof`. */
	execArgv?: string[];
}

/** Where a measurement sends its signed requests: the credential's fields. */
export interface SignedTarget {
	baseUrl: string;
	apiKey: string;
	apiSecret: string;
}

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

export async function startSandboxProcess(options: SandboxProcessOptions): Promise<SandboxProcess> {
	const child = spawn(
		process.execPath,
		[...(options.execArgv ?? []), repoPath('build/test/sandbox/cli.js'), '--port', '0', '--seed', String(options.seed)],
		{ stdio: ['ignore', 'pipe', 'inherit'] },
	);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const banner = await readBanner(child);
	const admin = `${banner.baseUrl}/__sandbox`;

	async function adminCall(method: string, path: string, body?: unknown): Promise<unknown> {
		const response = await fetch(`${admin}${path}`, {
			method,
			body: body === undefined ? undefined : JSON.stringify(body),
			headers: body === undefined ? undefined : { 'content-type': 'application/json' },
		});
		if (!response.ok) throw new Error(`sandbox admin ${method} ${path}: HTTP ${response.status} ${await response.text()}`);
		return response.status === 204 ? undefined : ((await response.json()) as { data: unknown }).data;
	}

	return {
		...banner,
		target: banner,
		pid: child.pid ?? 0,
		clearLog: async () => void (await adminCall('DELETE', '/log')),
		log: async () => (await adminCall('GET', '/log')) as RequestLogEntry[],
		setFaults: async (faults) => void (await adminCall('POST', '/faults', faults)),
		async stop() {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
			await exited;
		},
	};
}

/** Reads the CLI's start-up banner for the base URL, key and secret. */
function readBanner(child: ChildProcess): Promise<SignedTarget> {
	return new Promise((resolve, reject) => {
		let text = '';
		const timer = setTimeout(() => fail(new Error(`sandbox did not start within ${READY_TIMEOUT_MS} ms:\n${text}`)), READY_TIMEOUT_MS);
		function fail(error: Error): void {
			clearTimeout(timer);
			child.kill('SIGTERM');
			reject(error);
		}
		const onExit = (code: number | null): void => fail(new Error(`sandbox exited (${code}) before it was ready:\n${text}`));
		child.once('exit', onExit);
		child.stdout?.setEncoding('utf8');
		child.stdout?.on('data', (chunk: string) => {
			text += chunk;
			const baseUrl = /base URL\s+(\S+)/.exec(text)?.[1];
			const apiKey = /API key\s+(\S+)/.exec(text)?.[1];
			const apiSecret = /API secret\s+(\S+)/.exec(text)?.[1];
			if (baseUrl && apiKey && apiSecret && text.includes('Press Ctrl+C')) {
				clearTimeout(timer);
				child.off('exit', onExit);
				child.stdout?.removeAllListeners('data');
				child.stdout?.resume();
				resolve({ baseUrl, apiKey, apiSecret });
			}
		});
	});
}
