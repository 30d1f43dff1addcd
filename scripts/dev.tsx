/**
 * `npm run dev`: a real n8n editor (2.41.1 by default) on http://127.0.0.1:5678 with this package
 * installed as a community package, the seeded sandbox, the sandbox credential and the example
 * workflows imported, and an owner account to log in with. Edits under nodes/ or credentials/
 * rebuild the package, re-install it and restart n8n. Ctrl-C stops everything.
 *
 *   npm run dev [-- --port 5678] [--n8n 1.123.81] [--fresh] [--verbose]
 *   npm run dev -- --screenshot [options of screenshot.tsx]
 *
 * n8n's data (database with the owner and your own workflows) stays in .tmp/n8n-dev-<version>
 * between runs (one folder per n8n version: a database is not shared across versions); --fresh
 * starts from an empty one.
 */
import { watch, type FSWatcher } from 'node:fs';

import { repoPath } from '../test/harness/repoPath';
import { startDevEnvironment, type DevEnvironment } from '../test/e2e/devEnvironment';
import { PRIMARY_N8N_VERSION } from '../test/e2e/n8n/n8nInstall';
import { runCommand } from '../test/e2e/n8n/run';
import { runVariant } from '../test/harness/variants';

interface DevOptions {
	port: number;
	n8nVersion?: string;
	fresh: boolean;
	verbose: boolean;
}

function parseArguments(argv: string[]): DevOptions {
	const options: DevOptions = { port: 5678, fresh: false, verbose: false };
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		if (flag === '--port') options.port = Number(argv[++i]);
		else if (flag === '--n8n') options.n8nVersion = argv[++i];
		else if (flag === '--fresh') options.fresh = true;
		else if (flag === '--verbose') options.verbose = true;
		else
			throw new Error(
				`unknown option ${flag} (options: --port N, --n8n VERSION, --fresh, --verbose; or first --screenshot [--url URL --workflow ID --node NAME])`,
			);
	}
	if (!Number.isInteger(options.port) || options.port <= 0)
		throw new Error('--port needs a port number');
	return options;
}

function say(line: string): void {
	console.log(`[dev] ${line}`);
}

function printWhatToOpen(env: DevEnvironment): void {
	say('ready:');
	console.log(`
  n8n editor     ${env.url}
  log in as      ${env.owner.email}  /  ${env.owner.password}
  credential     "Support Ticket (sandbox)" → ${env.sandbox.baseUrl}
                 (API key ${env.sandbox.apiKey}, secret ${env.sandbox.apiSecret})
  workflows      ${env.workflows.map((w) => `${env.url}/workflow/${w.id}  (${w.json.name})`).join('\n                 ')}
  webhooks       the sandbox delivers every event to ${env.webhookUrls.length ? env.webhookUrls.join(', ') : '(no webhook example)'}
  sandbox admin  ${env.sandbox.baseUrl}/__sandbox/state

  Edit nodes/ or credentials/: the package is rebuilt and n8n restarts. Ctrl-C stops everything.
`);
}

/** Rebuilds and reloads after source edits: one at a time, edits during a rebuild queue one more. */
function watchSources(env: DevEnvironment): FSWatcher[] {
	let timer: NodeJS.Timeout | undefined;
	let running = false;
	let again = false;
	const rebuild = async (): Promise<void> => {
		if (running) {
			again = true;
			return;
		}
		running = true;
		try {
			say('change detected: npm run build …');
			const build = await runCommand('npm', ['run', 'build', '--silent'], { cwd: repoPath() });
			if (build.code !== 0) {
				say(
					`build failed; n8n keeps the previous version:\n${(build.stdout + build.stderr).trim()}`,
				);
				return;
			}
			say('reinstalling the package and restarting n8n …');
			await env.reloadPackage();
			say(`n8n is back on ${env.url} with the new build (reload the editor page)`);
		} catch (error) {
			say(`reload failed: ${String(error)}`);
		} finally {
			running = false;
			if (again) {
				again = false;
				void rebuild();
			}
		}
	};
	return ['nodes', 'credentials', 'icons'].map((folder) =>
		watch(repoPath(folder), { recursive: true }, () => {
			clearTimeout(timer);
			timer = setTimeout(() => void rebuild(), 400);
		}),
	);
}

async function main(): Promise<void> {
	const options = parseArguments(process.argv.slice(2));
	const n8nVersion = options.n8nVersion ?? PRIMARY_N8N_VERSION;
	const env = await startDevEnvironment({
		n8nVersion,
		port: options.port,
		userFolder: repoPath('.tmp', `n8n-dev-${n8nVersion}`),
		fresh: options.fresh,
		echo: options.verbose,
		log: say,
	});
	const watchers = watchSources(env);
	printWhatToOpen(env);
	let stopping = false;
	const shutdown = (): void => {
		if (stopping) return;
		stopping = true;
		say('stopping n8n and the sandbox …');
		watchers.forEach((watcher) => watcher.close());
		void env.stop().then(() => say('stopped.'));
	};
	process.on('SIGINT', shutdown);
	process.on('SIGTERM', shutdown);
}

if (!runVariant({ '--screenshot': () => import('./screenshot') })) {
	main().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : error);
		process.exitCode = 1;
	});
}
