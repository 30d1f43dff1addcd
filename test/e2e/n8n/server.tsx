import { spawn } from 'node:child_process';

import { freePort } from './ports';
import { killGroup } from './run';
import type { N8nUserFolder } from './userFolder';

/** A running `n8n start` (editor, REST API and production webhooks); `stop()` is idempotent. */
export interface RunningN8n {
	url: string;
	stop(): Promise<void>;
}

/** `port` defaults to a free one; `echo` copies n8n's output to this process's stderr. */
export interface StartOptions {
	port?: number;
	echo?: boolean;
}

// Printed once webhooks are registered; the readiness endpoint answers earlier than that.
const READY_LINE = 'Editor is now accessible';

export async function startN8n(
	folder: N8nUserFolder,
	options: StartOptions = {},
): Promise<RunningN8n> {
	const port = options.port ?? (await freePort());
	const url = `http://127.0.0.1:${port}`;
	const env: NodeJS.ProcessEnv = {
		...folder.env,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		WEBHOOK_URL: `${url}/`,
		N8N_EDITOR_BASE_URL: `${url}/`,
		// Cookies without Secure over plain http on loopback.
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
	};
	const child = spawn(folder.install.nodeBin, [folder.install.n8nBin, 'start'], {
		cwd: folder.root,
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let output = '';
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	let stopped = false;
	// SIGTERM, then SIGKILL after a grace period; resolves once the process is gone.
	const stop = async (): Promise<void> => {
		if (!stopped && child.exitCode === null && child.signalCode === null && child.pid) {
			stopped = true;
			killGroup(child.pid, 'SIGTERM');
			const timer = setTimeout(() => child.pid && killGroup(child.pid, 'SIGKILL'), 20_000);
			await exited;
			clearTimeout(timer);
		}
		await exited;
	};
	await new Promise<void>((resolve, reject) => {
		const timer = setTimeout(() => fail(new Error('n8n did not get ready within 180 s')), 180_000);
		const onData = (chunk: Buffer): void => {
			output += chunk.toString('utf8');
			if (options.echo) process.stderr.write(chunk);
			if (output.includes(READY_LINE)) {
				clearTimeout(timer);
				resolve();
			}
		};
		const fail = (error: Error): void => {
			clearTimeout(timer);
			void stop().then(() =>
				reject(new Error(`${error.message}\n${output.split('\n').slice(-40).join('\n')}`)),
			);
		};
		child.stdout?.on('data', onData);
		child.stderr?.on('data', onData);
		child.once('exit', (code, signal) =>
			fail(new Error(`n8n start exited early (${code ?? signal})`)),
		);
		child.once('error', fail);
	});
	return { url, stop };
}
