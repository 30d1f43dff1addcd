/**
 * `npm run demo`: starts the sandbox with seed data and runs the example workflows through n8n's
 * engine (n8n-core's WorkflowExecute, in-process, with this package loaded from dist/ as n8n
 * loads a community package), then prints what happened.
 */
import { readFileSync } from 'node:fs';

import { version as n8nCoreVersion } from 'n8n-core/package.json';

import {
	createPoller,
	isolateUserFolder,
	repoPath,
	runWorkflow,
	startWebhookReceiver,
	useNativeRegexEngine,
	type WorkflowJson,
} from '../test/harness';
import { startSandbox } from '../sandbox';

const SEED = 1050;

function loadExample(name: string): WorkflowJson {
	return JSON.parse(readFileSync(repoPath('examples', name), 'utf8')) as WorkflowJson;
}

/** Printed before the workflow runs, so whatever n8n logs while it runs stands under its heading. */
function printHeading(workflow: WorkflowJson, file: string): void {
	console.log(`▶ ${workflow.name ?? file}  (examples/${file})`);
}

async function main(): Promise<void> {
	isolateUserFolder();
	useNativeRegexEngine();
	const sandbox = await startSandbox({ seed: SEED });
	const credentials = {
		supportTicketApi: {
			baseUrl: sandbox.baseUrl,
			apiKey: sandbox.apiKey,
			apiSecret: sandbox.apiSecret,
		},
	};
	const engine = `n8n-core ${n8nCoreVersion} WorkflowExecute, in-process`;
	console.log(`Sandbox on ${sandbox.baseUrl} with ${SEED} seeded tickets; engine: ${engine}\n`);
	let failed = false;
	try {
		for (const [file, lastNode] of [
			['import-all-tickets.json', 'Get All Tickets'],
			['create-reply-update.json', 'Mark Solved'],
		] as const) {
			sandbox.clearLog();
			const workflow = loadExample(file);
			printHeading(workflow, file);
			const started = process.hrtime.bigint();
			const result = await runWorkflow(workflow, credentials);
			const ms = Number(process.hrtime.bigint() - started) / 1e6;
			if (result.error) {
				failed = true;
				console.log(`  ✗ failed: ${result.error.message}\n    ${result.error.description ?? ''}`);
				continue;
			}
			const items = result.output(lastNode);
			const calls = sandbox.log.map(
				(entry) => `${entry.method} ${entry.pathname.replace('/api/v1/external', '')}`,
			);
			const pages = calls.filter((c) => c === 'GET /tickets').length;
			console.log(
				`  ✓ ${items.length} item(s) out of "${lastNode}" in ${ms.toFixed(0)} ms; ${calls.length} signed call(s)${pages ? `, ${pages} page(s) of up to 100` : ''}`,
			);
			if (pages === 0) console.log(`    calls: ${calls.join(' → ')}`);
			const first = items[0]?.json;
			if (first) console.log(`    first item: ${JSON.stringify(first).slice(0, 160)}…`);
			console.log('');
		}

		// Triggers: the service's signed webhooks into the webhook trigger, then a poll cycle.
		{
			const workflow = loadExample('webhook-sync.json');
			printHeading(workflow, 'webhook-sync.json');
			const receiver = await startWebhookReceiver(workflow, credentials, 'On Ticket Event');
			const hook = sandbox.addWebhook({ url: receiver.url });
			const ticket = sandbox.store.createTicket({
				subject: 'Webhook demo',
				description: 'd',
				customer: { email: 'demo@example.com' },
			});
			sandbox.store.updateTicket(ticket.id, { status: 'pending' });
			await sandbox.webhooksIdle();
			// n8n logs the refusal unindented, between this line and the result.
			console.log('  a forged delivery, which the trigger must refuse (the expected warning):');
			const forged = await fetch(receiver.url, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'x-api-timestamp': String(Math.floor(Date.now() / 1000)),
					'x-api-signature': '0'.repeat(64),
				},
				body: JSON.stringify({
					id: 'evt_forged',
					event: 'ticket.created',
					data: { id: ticket.id },
				}),
			});
			await receiver.stop();
			sandbox.removeWebhook(hook);
			const statuses = sandbox.deliveries
				.filter((d) => d.webhookId === hook)
				.map((d) => `${d.event} ${d.status}`);
			const ok = receiver.executions.every((run) => !run.error) && forged.status === 401;
			failed ||= !ok;
			console.log(
				`  ${ok ? '✓' : '✗'} ${statuses.length} signed deliveries (${statuses.join(', ')}) → ${receiver.executions.length} run(s); a forged one → ${forged.status}, nothing started\n`,
			);
		}
		{
			const workflow = loadExample('poll-new-tickets.json');
			printHeading(workflow, 'poll-new-tickets.json');
			const poller = await createPoller(workflow, credentials, 'On New Ticket');
			await poller.poll();
			for (const n of [1, 2, 3])
				sandbox.store.createTicket({
					subject: `Polled ${n}`,
					description: 'd',
					customer: { email: `poll${n}@example.com` },
				});
			const polled = await poller.poll();
			const again = await poller.poll();
			const ok = polled.items?.length === 3 && !polled.execution?.error && again.items === null;
			failed ||= !ok;
			console.log(
				`  ${ok ? '✓' : '✗'} first poll: starting point; 3 tickets created; next poll: ${polled.items?.length ?? 0} new → ${polled.execution?.output('Acknowledge').length ?? 0} replies; poll after that: ${again.items?.length ?? 0} new\n`,
			);
		}
	} finally {
		await sandbox.stop();
	}
	console.log(
		'Keeping a copy in sync (examples/sync-*.json) and the incremental import (examples/incremental-import.json) use n8n Data Tables, which only the n8n server runs: `npm run test:sync` proves it in real n8n 2.41.1 (installed on first use; then about 3 minutes per mode).\n',
	);
	console.log(
		failed
			? 'Demo finished with errors.'
			: 'Demo finished. Next: `npm test`, or `npm run sandbox -- --port 4010 --seed 1000` and point a credential at it.',
	);
	process.exitCode = failed ? 1 : 0;
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
