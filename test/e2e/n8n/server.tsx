import { freePort } from './ports';
import { startProcess } from './run';
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
	const n8n = startProcess({
		name: 'n8n start',
		command: folder.install.nodeBin,
		args: [folder.install.n8nBin, 'start'],
		cwd: folder.root,
		env,
		echo: options.echo,
	});
	const stop = () => n8n.stop('SIGTERM', 20_000);
	await n8n.waitForOutput(READY_LINE, 180_000).catch(async (error: unknown) => {
		await stop();
		throw error;
	});
	return { url, stop };
}
