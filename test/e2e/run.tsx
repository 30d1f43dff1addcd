// `npm run test:e2e [-- --n8n <version>]`: the packed package in real n8n, headless runs then `n8n start` (test/e2e/README.md);
// `-- --queue` runs queue/run.tsx, `-- --ui` uiTest.tsx.

import assert from 'node:assert/strict';
import { parseArgs } from 'node:util';

import { startSandbox, type Sandbox } from '../../sandbox';
import { ensureQueueServices, runVariant } from '../harness/variants';
import { addAiCases } from './aiCases';
import { addCliCases } from './cliCases';
import type { CliContext, ServerContext } from './context';
import {
	e2eWorkflows,
	exampleWorkflows,
	findWorkflow,
	pointAtSandbox,
	sandboxCredentials,
	type WorkflowFile,
} from './fixtures';
import { activateWorkflow, importCredentials, importWorkflows } from './n8n/cli';
import { ensureN8n, N8N_TARGETS } from './n8n/n8nInstall';
import { DEV_OWNER, N8nRestClient } from './n8n/restClient';
import { startN8n, type RunningN8n } from './n8n/server';
import { createUserFolder, installCommunityPackage, removeUserFolder } from './n8n/userFolder';
import { packPackage, removePackedPackage, type PackedPackage } from './packPackage';
import { PinnableClock } from './pinnableClock';
import { addPlanCases, planWorkflows } from './planCases';
import { activePollCopy, addPollCases } from './pollCases';
import { addServerCases } from './serverCases';
import { reportTotals, runMain, seconds, Suite, type Totals } from './suite';
import { addWebhookCases, WEBHOOK_EXAMPLE } from './webhookCases';

const SEEDED_TICKETS = 250;
// The active poll copy's sandbox: a few pages' worth is enough.
const ACTIVE_COPY_TICKETS = 30;

function add(a: Totals, b: Totals): Totals {
	return { passed: a.passed + b.passed, failed: a.failed + b.failed };
}

async function setUp(
	version: string,
	packed: PackedPackage,
	examples: WorkflowFile[],
	e2e: WorkflowFile[],
): Promise<CliContext> {
	let started = Date.now();
	const install = await ensureN8n(version, (line) => console.log(`  ${line}`));
	console.log(`  n8n ${version} on Node ${install.node.version} ready (${seconds(started)})`);
	started = Date.now();
	const sandboxes: Sandbox[] = [];
	const start = async (seed: number, clock: PinnableClock): Promise<Sandbox> => {
		sandboxes.push(await startSandbox({ seed, now: clock.now }));
		return sandboxes[sandboxes.length - 1];
	};
	try {
		const [clock, pollClock] = [new PinnableClock(), new PinnableClock()];
		const sandbox = await start(SEEDED_TICKETS, clock);
		const pollSandbox = await start(ACTIVE_COPY_TICKETS, pollClock);
		const polling = activePollCopy(examples, pollSandbox);

		const folder = createUserFolder(install);
		await installCommunityPackage(folder, packed.tarball, packed.version);
		const credentials = sandboxCredentials(sandbox);
		await importCredentials(folder, [...credentials, polling.credential]);
		const workflows = [
			...examples,
			...e2e.map((w) => pointAtSandbox(w, sandbox.baseUrl)),
			...planWorkflows(examples),
			polling.workflow,
		].map((w) => w.json);
		await importWorkflows(folder, workflows);
		console.log(
			`  user folder ${folder.root}: package installed, credentials and ${workflows.length} workflows imported (${seconds(started)})`,
		);
		const onSandboxes = { sandbox, clock, pollSandbox, pollClock };
		return { folder, install, examples, e2e, credentials, polling, ...onSandboxes };
	} catch (error) {
		await Promise.all(sandboxes.map((s) => s.stop()));
		throw error;
	}
}

async function runVersion(version: string, packed: PackedPackage): Promise<Totals> {
	const [examples, e2e] = [exampleWorkflows(), e2eWorkflows()];
	let instance: CliContext | undefined;
	const current = (): CliContext => instance ?? assert.fail('no instance');
	const cli = new Suite(`n8n ${version}: headless runs (n8n execute)`);
	addCliCases(cli, examples, current);
	let rest: N8nRestClient | undefined;
	let running: RunningN8n | undefined;
	const server = new Suite(`n8n ${version}: server (n8n start)`);
	const serverContext = (): ServerContext =>
		rest && running ? { ...current(), rest, url: running.url } : assert.fail('no server');
	addServerCases(server, serverContext);
	addWebhookCases(server, version, serverContext);
	addPollCases(server, serverContext);
	addPlanCases(server, serverContext);
	addAiCases(server, version, serverContext);

	console.log(`\n== n8n ${version}`);
	try {
		instance = await setUp(version, packed, examples, e2e);
	} catch (error) {
		return add(cli.failAll(error), server.failAll(error));
	}
	try {
		const totals = await cli.run();
		try {
			const started = Date.now();
			// Active before the start: n8n registers the trigger's production webhook and the poll (whose first run notes
			// where to start) as it starts.
			for (const id of [findWorkflow(examples, WEBHOOK_EXAMPLE).id, instance.polling.workflow.id])
				await activateWorkflow(instance.folder, id);
			running = await startN8n(instance.folder);
			rest = new N8nRestClient(running.url);
			await rest.setupOwner(DEV_OWNER);
			console.log(
				`\n  webhook example and a copy of the poll example activated, n8n start on ${running.url}, owner set up (${seconds(started)})`,
			);
		} catch (error) {
			return add(totals, server.failAll(error));
		}
		return add(totals, await server.run());
	} finally {
		await running?.stop();
		await Promise.all([instance.sandbox.stop(), instance.pollSandbox.stop()]);
		if (!process.env.E2E_KEEP_USER_FOLDER) removeUserFolder(instance.folder);
	}
}

async function main(): Promise<void> {
	const started = Date.now();
	// `--n8n <version>` (repeatable; default every target): ensureN8n names the known ones for any other.
	const { values } = parseArgs({ options: { n8n: { type: 'string', multiple: true } } });
	const versions = values.n8n ?? Object.keys(N8N_TARGETS);
	let totals: Totals = { passed: 0, failed: 0 };
	let packed: PackedPackage | undefined;
	try {
		packed = await packPackage();
		console.log(`packed ${packed.tarball}`);
	} catch (error) {
		console.log(`npm pack failed: ${String(error)}`);
		totals.failed++;
	}
	if (packed) {
		for (const version of versions) totals = add(totals, await runVersion(version, packed));
		removePackedPackage(packed);
	}
	reportTotals(
		totals,
		`end-to-end (${versions.map((v) => `n8n ${v}`).join(', ')}) in ${seconds(started)}`,
	);
}

const variant = runVariant({
	'--queue': async () => {
		ensureQueueServices();
		await import('./queue/run');
	},
	'--ui': () => import('./uiTest'),
});
if (!variant) runMain(main);
