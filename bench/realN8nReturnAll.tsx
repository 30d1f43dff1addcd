/**
 * Return All through real n8n (`n8n execute`, the e2e's install, this package packed and installed
 * as a community package) against a sandbox process: time per page from n8n's own run data, and
 * how many times n8n reads the credential from its database per page (SQLite query log). One
 * Limit 100 run (1 page) and one Return All run (N/100 pages) of the same workflow; the per-page
 * figures are the difference divided by the extra pages, so start-up and the first page cancel out.
 * The in-process figure comes from the same workflow through WorkflowExecute (engineTraversal).
 */
import { executeWorkflow, importCredentials, importWorkflows } from '../test/e2e/n8n/cli';
import type { N8nInstall } from '../test/e2e/n8n/n8nInstall';
import { createUserFolder, installCommunityPackage, removeUserFolder } from '../test/e2e/n8n/userFolder';
import { packPackage, removePackedPackage } from '../test/e2e/packPackage';
import { sandboxCredentials, SANDBOX_CREDENTIAL_ID } from '../test/e2e/fixtures';
import { engineTraversal, getManyParameters } from './engineTraversal';
import type { SandboxProcess } from './sandboxProcess';

export interface RealN8nRun {
	pages: number;
	items: number;
	/** n8n's executionTime of the Support Ticket node, ms, in a run without the query log. */
	nodeMs: number;
	/** SELECTs of a credential's data on credentials_entity during the whole `n8n execute` process (query-logged run). */
	credentialReads: number;
	processMs: number;
}

export interface RealN8nFigures {
	version: string;
	tickets: number;
	one: RealN8nRun;
	all: RealN8nRun;
	/** In-process (WorkflowExecute in this process), Limit 100 and Return All, wall ms. */
	inProcessOneMs: number;
	inProcessAllMs: number;
}

function workflow(id: string, limit: number | undefined): { id: string; name: string; nodes: unknown[]; connections: unknown } {
	return {
		id,
		name: id,
		nodes: [
			{ id: 't', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'n',
				name: 'Node',
				type: 'n8n-nodes-support-ticket.supportTicket',
				typeVersion: 1,
				position: [220, 0],
				parameters: getManyParameters(limit),
				credentials: { supportTicketApi: { id: SANDBOX_CREDENTIAL_ID, name: 'Support Ticket (sandbox)' } },
			},
		],
		connections: { Start: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } },
	};
}

export async function measureRealN8nReturnAll(install: N8nInstall, sandbox: SandboxProcess, tickets: number): Promise<RealN8nFigures> {
	const packed = await packPackage();
	const folder = createUserFolder(install, {
		env: { DB_LOGGING_ENABLED: 'true', DB_LOGGING_OPTIONS: 'query' },
	});
	try {
		await installCommunityPackage(folder, packed.tarball, packed.version);
		await importCredentials(folder, sandboxCredentials(sandbox));
		await importWorkflows(folder, [workflow('benchLimitOne', 100), workflow('benchReturnAll', undefined)]);
		// Timed without the query log (printing every query costs time); counted in a second run with it.
		const quiet = { ...folder, env: { ...folder.env, DB_LOGGING_ENABLED: 'false' } };
		const execute = async (id: string, logged: boolean) => {
			await sandbox.clearLog();
			const started = performance.now();
			const execution = await executeWorkflow(logged ? folder : quiet, id, 600_000);
			const processMs = performance.now() - started;
			const printed = execution.run as { data?: { resultData: { runData: Record<string, Array<{ executionTime: number; data: { main: unknown[][] } }>> } } } | undefined;
			if (execution.exitCode !== 0 || !printed?.data) throw new Error(`n8n execute ${id} failed (${execution.exitCode}):\n${execution.command.stderr.slice(-2000)}`);
			return { execution, processMs, node: printed.data.resultData.runData.Node[0], log: await sandbox.log() };
		};
		const run = async (id: string): Promise<RealN8nRun> => {
			const timed = await execute(id, false);
			const counted = await execute(id, true);
			const text = `${counted.execution.command.stdout}\n${counted.execution.command.stderr}`;
			return {
				pages: timed.log.filter((e) => e.method === 'GET' && e.status === 200).length,
				items: timed.node.data.main[0].length,
				nodeMs: timed.node.executionTime,
				credentialReads: (text.match(/SELECT[^\n]*"CredentialsEntity_data"[^\n]*FROM "credentials_entity"/g) ?? []).length,
				processMs: timed.processMs,
			};
		};
		const one = await run('benchLimitOne');
		const all = await run('benchReturnAll');
		const target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret };
		await engineTraversal(target, 100); // warm-up
		let started = performance.now();
		await engineTraversal(target, 100);
		const inProcessOneMs = performance.now() - started;
		started = performance.now();
		const items = await engineTraversal(target);
		const inProcessAllMs = performance.now() - started;
		if (items.length !== tickets || all.items !== tickets) throw new Error(`expected ${tickets} items, got ${all.items} in n8n and ${items.length} in-process`);
		return { version: install.version, tickets, one, all, inProcessOneMs, inProcessAllMs };
	} finally {
		removeUserFolder(folder);
		removePackedPackage(packed);
	}
}

function perPageFigures(figures: RealN8nFigures): { extraPages: number; perPage: number; inProcessPerPage: number; readsPerPage: number } {
	const { one, all } = figures;
	const extraPages = all.pages - one.pages;
	return {
		extraPages,
		perPage: (all.nodeMs - one.nodeMs) / extraPages,
		inProcessPerPage: (figures.inProcessAllMs - figures.inProcessOneMs) / extraPages,
		readsPerPage: (all.credentialReads - one.credentialReads) / extraPages,
	};
}

/** Rows for the summary table of results.md. */
export function realN8nSummaryRows(figures: RealN8nFigures): string[][] {
	const { perPage, inProcessPerPage, readsPerPage } = perPageFigures(figures);
	const title = `Return All ${figures.tickets.toLocaleString('en')} through real n8n ${figures.version} (\`n8n execute\`)`;
	return [
		[`${title}: time per page, real ÷ in-process`, `${(perPage / inProcessPerPage).toFixed(2)} (${perPage.toFixed(1)} / ${inProcessPerPage.toFixed(1)} ms)`, 'for reference', ''],
		[`${title}: credential reads from the database per page`, readsPerPage.toFixed(2), 'for reference', ''],
	];
}

export function realN8nSection(figures: RealN8nFigures): string {
	const { one, all } = figures;
	const { extraPages, perPage, inProcessPerPage, readsPerPage } = perPageFigures(figures);
	const row = (name: string, r: RealN8nRun): string =>
		`| ${name} | ${r.pages} | ${r.items} | ${r.nodeMs.toFixed(0)} | ${r.credentialReads} | ${(r.processMs / 1000).toFixed(1)} |`;
	return [
		`## Return All through real n8n ${figures.version} (\`n8n execute\`), ${figures.tickets.toLocaleString('en')} tickets`,
		'',
		'This package `npm pack`ed and installed as a community package in the e2e\'s n8n install (SQLite, `DB_LOGGING_OPTIONS=query`),',
		'credential and workflows imported with the CLI, each workflow run by `n8n execute` twice: timed without the query log (node time is',
		'n8n\'s own `executionTime` of the Support Ticket node), then counted with it (SELECTs of the credential\'s data on `credentials_entity`',
		'over the whole process). Per page =',
		`(Return All − Limit 100) ÷ ${extraPages} extra pages, so start-up and the first page cancel out. In-process = the same workflow`,
		'through WorkflowExecute in the bench process (harness credentials: no database).',
		'',
		'| run | pages | items | node ms | credential reads | process s |',
		'|---|---:|---:|---:|---:|---:|',
		row('Limit 100', one),
		row('Return All', all),
		'',
		`| figure | measured |`,
		'|---|---:|',
		`| time per page, real n8n | ${perPage.toFixed(2)} ms |`,
		`| time per page, in-process | ${inProcessPerPage.toFixed(2)} ms |`,
		`| real ÷ in-process, per page | ${(perPage / inProcessPerPage).toFixed(2)} |`,
		`| credential reads from the database per page | ${readsPerPage.toFixed(2)} |`,
		'',
	].join('\n');
}

/** Alone: `node build/bench/realN8nReturnAll.js [tickets]` prints the section. */
if (require.main === module) {
	void (async () => {
		const { ensureN8n, PRIMARY_N8N_VERSION } = await import('../test/e2e/n8n/n8nInstall');
		const { startSandboxProcess } = await import('./sandboxProcess');
		const { isolateUserFolder } = await import('../test/harness');
		isolateUserFolder();
		const tickets = Number(process.argv[2] ?? 10_000);
		const install = await ensureN8n(PRIMARY_N8N_VERSION, console.log);
		const sandbox = await startSandboxProcess({ seed: tickets });
		try {
			console.log(realN8nSection(await measureRealN8nReturnAll(install, sandbox, tickets)));
		} finally {
			await sandbox.stop();
		}
	})().catch((error: unknown) => {
		console.error(error);
		process.exitCode = 1;
	});
}
