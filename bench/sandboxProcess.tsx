/**
 * The sandbox in a process of its own (`build/sandbox/cli.js`), so its CPU and memory are not
 * counted on either side of a measurement. Driven over its unauthenticated admin surface.
 */
import { startService } from '../test/e2e/queue/services/serviceProcess';
import { repoPath } from '../test/harness/repoPath';
import {
	ADMIN_PREFIX,
	DEFAULT_API_KEY,
	DEFAULT_API_SECRET,
	type FaultOptions,
	type RequestLogEntry,
} from '../sandbox';

/** Where a measurement sends its signed requests: the credential's fields. */
export type SignedTarget = { baseUrl: string; apiKey: string; apiSecret: string };

/** The admin surface of the sandbox at `baseUrl`, from any process. */
export function sandboxAdmin(baseUrl: string) {
	const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
		const json =
			body === undefined
				? {}
				: { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
		const response = await fetch(`${baseUrl}${ADMIN_PREFIX}${path}`, { method, ...json });
		if (!response.ok)
			throw new Error(
				`sandbox admin ${method} ${path}: HTTP ${response.status} ${await response.text()}`,
			);
		return response.status === 204
			? undefined
			: ((await response.json()) as { data: unknown }).data;
	};
	return {
		clearLog: async (): Promise<void> => void (await call('DELETE', '/log')),
		log: async (): Promise<RequestLogEntry[]> => (await call('GET', '/log')) as RequestLogEntry[],
		setFaults: async (faults: FaultOptions): Promise<void> =>
			void (await call('POST', '/faults', faults)),
	};
}

export type SandboxProcess = ReturnType<typeof sandboxAdmin> & {
	target: SignedTarget;
	stop(): Promise<void>;
};

/**
 * Resolves once the sandbox is seeded with `seed` tickets and answers (the CLI prints its banner,
 * base URL included); `options` are more of the CLI's, e.g. `['--sort', 'none']`.
 */
export async function startSandboxProcess(
	seed: number,
	options: string[] = [],
): Promise<SandboxProcess> {
	const args = [
		repoPath('build/sandbox/cli.js'),
		'--port',
		'0',
		'--seed',
		String(seed),
		...options,
	];
	const service = startService({
		name: `the sandbox seeded with ${seed} tickets`,
		command: process.execPath,
		args,
		logFile: '/dev/null',
	});
	await service.waitForOutput('Press Ctrl+C', 60_000).catch(async (error: unknown) => {
		await service.stop();
		throw error;
	});
	const baseUrl = /base URL\s+(\S+)/.exec(service.output())?.[1] ?? '';
	return {
		...sandboxAdmin(baseUrl),
		target: { baseUrl, apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET },
		stop: () => service.stop(),
	};
}
