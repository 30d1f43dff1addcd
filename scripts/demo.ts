/**
 * `npm run demo`: starts the sandbox with seed data and runs the example workflows through n8n's
 * engine (n8n-core's WorkflowExecute, in-process, with this package loaded from dist/ as n8n
 * loads a community package), then prints what happened.
 */
import { readFileSync } from 'node:fs';

import { version as n8nCoreVersion } from 'n8n-core/package.json';

import { isolateUserFolder, repoPath, runWorkflow, type WorkflowJson } from '../test/harness';
import { startSandbox } from '../test/sandbox';

const SEED = 1050;

function loadExample(name: string): WorkflowJson {
	return JSON.parse(readFileSync(repoPath('examples', name), 'utf8')) as WorkflowJson;
}

async function main(): Promise<void> {
	isolateUserFolder();
	const sandbox = await startSandbox({ seed: SEED });
	const credentials = { supportTicketApi: { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret } };
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
			const started = process.hrtime.bigint();
			const result = await runWorkflow(workflow, credentials);
			const ms = Number(process.hrtime.bigint() - started) / 1e6;
			console.log(`▶ ${workflow.name ?? file}  (examples/${file})`);
			if (result.error) {
				failed = true;
				console.log(`  ✗ failed: ${result.error.message}\n    ${result.error.description ?? ''}`);
				continue;
			}
			const items = result.output(lastNode);
			const calls = sandbox.log.map((entry) => `${entry.method} ${entry.pathname.replace('/api/v1/external', '')}`);
			const pages = calls.filter((c) => c === 'GET /tickets').length;
			console.log(`  ✓ ${items.length} item(s) out of "${lastNode}" in ${ms.toFixed(0)} ms; ${calls.length} signed call(s)${pages ? `, ${pages} page(s) of up to 100` : ''}`);
			if (pages === 0) console.log(`    calls: ${calls.join(' → ')}`);
			const first = items[0]?.json;
			if (first) console.log(`    first item: ${JSON.stringify(first).slice(0, 160)}…`);
			console.log('');
		}
	} finally {
		await sandbox.stop();
	}
	console.log(failed ? 'Demo finished with errors.' : 'Demo finished. Next: `npm test`, or `npm run sandbox -- --port 4010 --seed 1000` and point a credential at it.');
	process.exitCode = failed ? 1 : 0;
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
