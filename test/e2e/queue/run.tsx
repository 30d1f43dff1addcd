// `npm run test:e2e -- --queue`: PostgreSQL, Redis and n8n 2.41.1 as main, worker and webhook process, each with the packed
// package; everything started is stopped at the end, also on failure or Ctrl+C (test/e2e/README.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startSandbox } from '../../../sandbox';
import { sandboxCredentials } from '../fixtures';
import { activateWorkflow, importCredentials, importWorkflows } from '../n8n/cli';
import { ensureN8n, PRIMARY_N8N_VERSION } from '../n8n/n8nInstall';
import { DEV_OWNER, N8nRestClient } from '../n8n/restClient';
import { packPackage } from '../packPackage';
import { reportTotals, runMain, Suite, type Totals } from '../suite';
import { addQueueCases, type QueueContext } from './queueCases';
import { createFolders, startCluster } from './queueCluster';
import { IMPORT_BY_WEBHOOK, queueExamples, startedByWebhook } from './queueWorkflows';
import { startPostgres } from './services/postgresServer';
import { startRedis } from './services/redisServer';
import { stopEveryService } from './services/serviceProcess';

const SEEDED_TICKETS = 250;

function seconds(since: number): string {
	return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/** Everything the suite started, stopped in reverse order; safe to call more than once. */
class Resources {
	private readonly stops: Array<{ name: string; stop: () => Promise<void> }> = [];

	add(name: string, stop: () => Promise<void>): void {
		this.stops.push({ name, stop });
	}

	async stopAll(): Promise<void> {
		for (let next = this.stops.pop(); next; next = this.stops.pop()) {
			const { name, stop } = next;
			try {
				await stop();
			} catch (error) {
				console.log(`  could not stop ${name}: ${String(error)}`);
			}
		}
	}
}


async function setUp(resources: Resources, workDir: string): Promise<QueueContext> {
	const log = (line: string): void => console.log(`  ${line}`);
	let started = Date.now();
	const install = await ensureN8n(PRIMARY_N8N_VERSION, log);
	const packed = await packPackage();
	log(`n8n ${install.version} on Node ${install.node.version}, package packed (${seconds(started)})`);

	started = Date.now();
	const postgres = await startPostgres(workDir);
	resources.add('PostgreSQL', postgres.stop);
	const redis = await startRedis(workDir);
	resources.add('Redis', redis.stop);
	const sandbox = await startSandbox({ seed: SEEDED_TICKETS });
	resources.add('sandbox', () => sandbox.stop());
	log(`PostgreSQL ${postgres.version} on ${postgres.host}:${postgres.port}, Redis on ${redis.host}:${redis.port}, sandbox on ${sandbox.baseUrl} (${seconds(started)})`);

	started = Date.now();
	const folders = await createFolders({ install, packed, postgres, redis, workDir });
	// Set-up commands run against the shared database, as an administrator would from main's machine.
	await importCredentials(folders.main, sandboxCredentials(sandbox));
	const examples = queueExamples();
	const byWebhook = [startedByWebhook(examples.importAll, IMPORT_BY_WEBHOOK)];
	const workflows = [...Object.values(examples).map((example) => example.json), ...byWebhook];
	await importWorkflows(folders.main, workflows);
	const published = [examples.webhookSync.id, ...byWebhook.map((workflow) => workflow.id)];
	for (const id of published) await activateWorkflow(folders.main, id);
	log(`credentials and ${workflows.length} workflows imported, ${published.length} published (${seconds(started)})`);

	started = Date.now();
	const cluster = await startCluster(folders, workDir, log);
	resources.add('n8n cluster', cluster.stop);
	const rest = new N8nRestClient(cluster.main.url);
	await rest.setupOwner(DEV_OWNER);
	log(`cluster up, owner set up on main (${seconds(started)})`);
	return { install, sandbox, postgres, redis, cluster, rest, examples };
}

async function main(): Promise<void> {
	const started = Date.now();
	const workDir = mkdtempSync(path.join(tmpdir(), 'n8n-queue-e2e-'));
	const resources = new Resources();
	let interrupted = false;
	const onSignal = (signal: NodeJS.Signals): void => {
		if (interrupted) return;
		interrupted = true;
		console.log(`\n${signal}: stopping everything the suite started …`);
		void stopEveryService()
			.then(() => resources.stopAll())
			.finally(() => {
				console.log(`logs and user folders kept in ${workDir}`);
				process.exit(130);
			});
	};
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);

	let context: QueueContext | undefined;
	const suite = new Suite(`n8n ${PRIMARY_N8N_VERSION} in queue mode: main + worker + webhook process, Redis, PostgreSQL`);
	addQueueCases(suite, () => {
		if (!context) throw new Error('no cluster');
		return context;
	});
	let totals: Totals;
	try {
		console.log(`\n== queue mode (work folder ${workDir})`);
		try {
			context = await setUp(resources, workDir);
			totals = await suite.run();
		} catch (error) {
			totals = suite.failAll(error);
		}
	} finally {
		await resources.stopAll();
		// Processes whose start-up failed half-way are not in `resources`.
		await stopEveryService();
	}
	const keep = totals.failed > 0 || Boolean(process.env.E2E_KEEP_USER_FOLDER);
	if (keep) console.log(`\nlogs and user folders kept in ${workDir}`);
	else rmSync(workDir, { recursive: true, force: true });
	reportTotals(totals, `queue mode end-to-end in ${seconds(started)}`);
}

runMain(main);
