/**
 * The sandbox in a process of its own (`build/test/sandbox/cli.js`), so its CPU and memory are not
 * counted on either side of a measurement. Driven over its unauthenticated admin surface.
 */
import { spawn } from 'node:child_process';

import { waitUntil } from '../test/e2e/wait';
import { repoPath } from '../test/harness/repoPath';
import { ADMIN_PREFIX, DEFAULT_API_KEY, DEFAULT_API_SECRET, type FaultOptions, type RequestLogEntry } from '../test/sandbox';

/** Where a measurement sends its signed requests: the credential's fields. */
export type SignedTarget = { baseUrl: string; apiKey: string; apiSecret: string };

export interface SandboxProcess {
	target: SignedTarget;
	pid: number;
	clearLog(): Promise<void>;
	log(): Promise<RequestLogEntry[]>;
	setFaults(faults: FaultOptions): Promise<void>;
	/** SIGTERM, then waits for the exit (the CLI stops cleanly, so a CPU profile gets written). */
	stop(): Promise<void>;
}

/** `execArgv`: extra node flags for the sandbox process, e.g. `--cpu-prof`; resolves once it is seeded and answers. */
export async function startSandboxProcess(options: { seed: number; execArgv?: string[] }): Promise<SandboxProcess> {
	const args = [...(options.execArgv ?? []), repoPath('build/test/sandbox/cli.js'), '--port', '0', '--seed', String(options.seed)];
	const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	// The CLI prints its banner, base URL included, once seeded and listening; the key and secret are the defaults.
	let banner = '';
	child.stdout.setEncoding('utf8').on('data', (chunk: string) => (banner += chunk));
	const bannerUrl = async (): Promise<string | undefined> => {
		if (child.exitCode !== null) throw new Error(`sandbox exited (${child.exitCode}) before it was ready:\n${banner}`);
		return banner.includes('Press Ctrl+C') ? /base URL\s+(\S+)/.exec(banner)?.[1] : undefined;
	};
	const stop = async (): Promise<void> => {
		if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
		await exited;
	};
	const baseUrl = await waitUntil(`the sandbox seeded with ${options.seed} tickets`, bannerUrl, 60_000, { intervalMs: 50 }).catch(async (error: unknown) => {
		await stop();
		throw error;
	});
	const target = { baseUrl, apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET };
	const admin = async (method: string, path: string, body?: unknown): Promise<unknown> => {
		const json = body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
		const response = await fetch(`${target.baseUrl}${ADMIN_PREFIX}${path}`, { method, ...json });
		if (!response.ok) throw new Error(`sandbox admin ${method} ${path}: HTTP ${response.status} ${await response.text()}`);
		return response.status === 204 ? undefined : ((await response.json()) as { data: unknown }).data;
	};
	return {
		target,
		pid: child.pid ?? 0,
		clearLog: async () => void (await admin('DELETE', '/log')),
		log: async () => (await admin('GET', '/log')) as RequestLogEntry[],
		setFaults: async (faults) => void (await admin('POST', '/faults', faults)),
		stop,
	};
}
