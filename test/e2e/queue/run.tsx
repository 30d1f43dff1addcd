// `npm run test:e2e -- --queue`: PostgreSQL, Redis and n8n 2.41.1 as main, worker and webhook process, each with the packed
// package; everything started is stopped at the end, also on failure or Ctrl+C (test/e2e/README.md).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startSandbox } from '../../../sandbox';
import { sandboxCredentials } from '../fixtures';
import { ensureN8n, PRIMARY_N8N_VERSION } from '../n8n/n8nInstall';
import { packPackage } from '../packPackage';
import { reportTotals, runMain, Suite, type Totals } from '../suite';
import { addQueueCases, type QueueContext } from './queueCases';
import { startQueueN8n } from './queueCluster';
import { IMPORT_BY_WEBHOOK, queueExamples, startedByWebhook } from './queueWorkflows';
import { stopEveryService, stopInReverse } from './services/serviceProcess';

const SEEDED_TICKETS = 250;

const log = (line: string) => console.log(`  ${line}`);
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

async function setUp(stops: Array<() => Promise<void>>, workDir: string): Promise<QueueContext> {
	const started = Date.now();
	const install = await ensureN8n(PRIMARY_N8N_VERSION, log);
	const packed = await packPackage();
	const sandbox = await startSandbox({ seed: SEEDED_TICKETS });
	stops.push(() => sandbox.stop());
	const examples = queueExamples();
	const byWebhook = startedByWebhook(examples.importAll, IMPORT_BY_WEBHOOK);
	const workflows = [...Object.values(examples).map((example) => example.json), byWebhook];
	const active = [examples.webhookSync.id, byWebhook.id];
	const n8n = await startQueueN8n(
		{ install, packed, workDir, credentials: () => sandboxCredentials(sandbox), workflows, active },
		stops,
		log,
	);
	log(
		`Node ${install.node.version}, Redis on ${n8n.redis.host}:${n8n.redis.port}, sandbox on ${sandbox.baseUrl}; ${workflows.length} workflows imported, ${active.length} published (${seconds(started)})`,
	);
	return { ...n8n, install, sandbox, examples };
}

async function main(): Promise<void> {
	const started = Date.now();
	const workDir = mkdtempSync(path.join(tmpdir(), 'n8n-queue-e2e-'));
	const stops: Array<() => Promise<void>> = [];
	let interrupted = false;
	const onSignal = (signal: NodeJS.Signals): void => {
		if (interrupted) return;
		interrupted = true;
		console.log(`\n${signal}: stopping everything the suite started …`);
		void stopEveryService()
			.then(() => stopInReverse(stops))
			.finally(() => {
				console.log(`logs and user folders kept in ${workDir}`);
				process.exit(130);
			});
	};
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);

	let context: QueueContext | undefined;
	const suite = new Suite(
		`n8n ${PRIMARY_N8N_VERSION} in queue mode: main + worker + webhook process, Redis, PostgreSQL`,
	);
	addQueueCases(suite, () => context ?? assert.fail('no cluster'));
	let totals: Totals;
	try {
		console.log(`\n== queue mode (work folder ${workDir})`);
		context = await setUp(stops, workDir);
		totals = await suite.run();
	} catch (error) {
		totals = suite.failAll(error);
	} finally {
		await stopInReverse(stops);
		// Processes whose start-up failed half-way are not in `stops`.
		await stopEveryService();
	}
	const keep = totals.failed > 0 || Boolean(process.env.E2E_KEEP_USER_FOLDER);
	if (keep) console.log(`\nlogs and user folders kept in ${workDir}`);
	else rmSync(workDir, { recursive: true, force: true });
	reportTotals(totals, `queue mode end-to-end in ${seconds(started)}`);
}

runMain(main);
