/**
 * `npm run bench -- --large-import`: the page-by-page imports (one execution after another) of a large account in real n8n
 * 2.41.1 queue mode (main + worker + webhook process, PostgreSQL, Redis), against the sandbox in a
 * process of its own with a fixed latency per call. Writes bench/large-import-results.md after each
 * section.
 *
 *   node build/bench/largeImport.js [--tickets 100000,1000000] [--data-tables 10000,50000] [--latency 50]
 *        [--postgres-workflow examples/large-account-import-postgres.json]
 *        [--data-tables-workflow examples/large-account-import.json] [--out bench/large-import-results.md]
 *
 * Per size: examples/large-account-import-postgres.json (published, run once by hand: it calls
 * itself page after page on the worker, tickets and customers as two chains at once), then, as the
 * floor, our node's Return All of the same tickets and customers in one execution (each cursor chain
 * is sequential either way). Then
 * examples/large-account-import.json (Data Tables) at each --data-tables size, with its own floor.
 * For each: wall time, tickets/s, list calls, the worker's peak RSS (VmHWM of its process; the
 * worker is restarted before each run so the peak is that run's), and n8n's execution data after it
 * (rows and bytes of execution_entity / execution_data).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import {
	ADMIN_PREFIX,
	DEFAULT_API_KEY,
	DEFAULT_API_SECRET,
	type RequestLogEntry,
} from '../sandbox';
import { isFinished } from '../test/e2e/executions';
import { sandboxCredentials, type StoredWorkflowJson } from '../test/e2e/fixtures';
import { activateWorkflow, importCredentials, importWorkflows } from '../test/e2e/n8n/cli';
import { ensureN8n, PRIMARY_N8N_VERSION } from '../test/e2e/n8n/n8nInstall';
import { freePort } from '../test/e2e/n8n/ports';
import { DEV_OWNER, N8nRestClient } from '../test/e2e/n8n/restClient';
import { packPackage, removePackedPackage } from '../test/e2e/packPackage';
import { createFolders, type QueueCluster, startCluster } from '../test/e2e/queue/queueCluster';
import { type PostgresServer, startPostgres } from '../test/e2e/queue/services/postgresServer';
import { startRedis } from '../test/e2e/queue/services/redisServer';
import { startService, stopEveryService } from '../test/e2e/queue/services/serviceProcess';
import { executionError } from '../test/e2e/sync/syncProof';
import { countRows, dropTable, readTable } from '../test/e2e/sync/syncTables';
import { waitUntil } from '../test/harness/wait';
import { repoPath } from '../test/harness/repoPath';
import { checkOptions, option, type RunFacts, startRun, table } from './report';

const execFileAsync = promisify(execFile);
const log = (line: string): void => console.log(`  ${line}`);
const MIB = 2 ** 20;
const PAGE = 100;
const POSTGRES_ID = 'benchLargeImportPg';
const DATA_TABLES_ID = 'benchLargeImportDt';
const RETURN_ALL_ID = 'benchReturnAllBoth';
const WRITES_ID = 'benchDataTableWrites';
const WRITES_TABLE = 'st_bench_writes';
const TRIGGER = 'Start Import';
const LIST = /\/(tickets|customers)$/;
/** Generous bounds: a run that takes longer is reported as failed, not waited for forever. */
const RUN_TIMEOUT_MS = 4 * 60 * 60_000;

type Sandbox = {
	baseUrl: string;
	tickets: number;
	customers: number;
	log(): Promise<RequestLogEntry[]>;
	clearLog(): Promise<void>;
	stop(): Promise<void>;
};

/** The sandbox CLI seeded with `tickets`, every API answer `latencyMs` late, on `port` (the credential's URL stays the same across sizes). */
async function startSandbox(port: number, tickets: number, latencyMs: number): Promise<Sandbox> {
	const args = [
		repoPath('build/sandbox/cli.js'),
		'--port',
		String(port),
		'--seed',
		String(tickets),
		'--faults',
		JSON.stringify({ latencyMs }),
	];
	const service = startService({
		name: `the sandbox seeded with ${tickets} tickets`,
		command: process.execPath,
		args: ['--max-old-space-size=8192', ...args],
		logFile: '/dev/null',
	});
	await service.waitForOutput('Press Ctrl+C', 30 * 60_000).catch(async (error: unknown) => {
		await service.stop();
		throw error;
	});
	const baseUrl = `http://127.0.0.1:${port}`;
	const admin = async (method: string, p: string): Promise<unknown> => {
		const response = await fetch(`${baseUrl}${ADMIN_PREFIX}${p}`, { method });
		if (!response.ok) throw new Error(`sandbox admin ${method} ${p}: HTTP ${response.status}`);
		return response.status === 204
			? undefined
			: ((await response.json()) as { data: unknown }).data;
	};
	const state = (await admin('GET', '/state')) as { tickets: number; customers: number };
	return {
		baseUrl,
		tickets: state.tickets,
		customers: state.customers,
		log: async () => (await admin('GET', '/log')) as RequestLogEntry[],
		clearLog: async () => void (await admin('DELETE', '/log')),
		stop: () => service.stop(),
	};
}

async function psql(postgres: PostgresServer, sql: string): Promise<void> {
	await execFileAsync(
		'psql',
		[
			'-h',
			postgres.host,
			'-p',
			String(postgres.port),
			'-U',
			postgres.user,
			'-d',
			postgres.database,
			'-X',
			'-q',
			'-v',
			'ON_ERROR_STOP=1',
			'-c',
			sql,
		],
		{ timeout: 120_000 },
	);
}

/** Peak resident set of a process so far (kB → bytes), from /proc. */
function peakRss(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
	if (!kb) throw new Error(`no VmHWM for process ${pid}`);
	return Number(kb) * 1024;
}

/** Rows of execution_entity (those n8n deleted softly, i.e. not saved, still count until its pruning removes them), execution_data, and the bytes of both. */
type ExecutionData = { entityRows: number; softDeleted: number; dataRows: number; bytes: number };

async function executionData(postgres: PostgresServer): Promise<ExecutionData> {
	const [row] = await postgres.query<{ entity: number; soft: number; data: number; bytes: number }>(
		'SELECT (SELECT count(*) FROM execution_entity)::int AS entity, (SELECT count(*) FROM execution_entity WHERE "deletedAt" IS NOT NULL)::int AS soft, (SELECT count(*) FROM execution_data)::int AS data, ' +
			"(pg_total_relation_size('execution_entity') + pg_total_relation_size('execution_data'))::bigint AS bytes",
	);
	return {
		entityRows: row.entity,
		softDeleted: row.soft,
		dataRows: row.data,
		bytes: Number(row.bytes),
	};
}

type RunFigures = {
	seconds: number;
	/** First list request sent to the last answer received, from the sandbox's log. */
	listSpanSeconds: number;
	calls: number;
	workerPeakBytes: number;
	/** The worker's peak so far, read once a minute: when it was reached, and whether it still rose at the end. */
	workerPeakByMinuteBytes: number[];
	executionsBefore: ExecutionData;
	executionsAfter: ExecutionData;
	/** Executions of the workflow n8n lists afterwards. */
	listed: number;
};

/** Fails fast when an execution of `workflowId` failed; otherwise whether none is still running. */
async function settled(rest: N8nRestClient, workflowId: string): Promise<boolean> {
	const executions = await rest.listExecutions(workflowId);
	const failed = executions.find((e) => e.status === 'error' || e.status === 'crashed');
	if (failed)
		throw new Error(
			`execution ${failed.id} of ${workflowId} failed: ${await executionError(rest, failed.id)}`,
		);
	return executions.every(isFinished);
}

/**
 * Restarts the worker (a fresh peak), runs `workflowId` by hand, waits for `done` and for every
 * execution of it to end, and measures.
 */
async function measure(
	cluster: QueueCluster,
	rest: N8nRestClient,
	postgres: PostgresServer,
	sandbox: Sandbox,
	workflowId: string,
	done: () => Promise<boolean>,
	pinData?: Parameters<N8nRestClient['runManually']>[2],
): Promise<RunFigures> {
	log(`${workflowId}: restarting the worker`);
	await cluster.restart('worker');
	await sandbox.clearLog();
	log(`${workflowId}: started`);
	const executionsBefore = await executionData(postgres);
	const started = performance.now();
	await rest.runManually(workflowId, TRIGGER, pinData);
	let polls = 0;
	const workerPeakByMinuteBytes: number[] = [];
	await waitUntil(
		`${workflowId} to finish`,
		async () => {
			// Progress every ~minute, so a long run shows it is alive.
			if (++polls % 60 === 0) {
				workerPeakByMinuteBytes.push(peakRss(cluster.worker.process.pid));
				log(
					`  ${workflowId}: ${(await sandbox.log()).filter((e) => LIST.test(e.pathname)).length} list calls so far`,
				);
			}
			return (await done()) && (await settled(rest, workflowId)) ? true : undefined;
		},
		RUN_TIMEOUT_MS,
		{ intervalMs: 1000 },
	);
	const seconds = (performance.now() - started) / 1000;
	const workerPeakBytes = peakRss(cluster.worker.process.pid);
	const lists = (await sandbox.log()).filter((e) => e.method === 'GET' && LIST.test(e.pathname));
	const first = Math.min(...lists.map((e) => Number(e.startedAt)));
	const last = Math.max(...lists.map((e) => Number(e.startedAt) + Number(e.durationMs)));
	return {
		seconds,
		listSpanSeconds: (last - first) / 1000,
		calls: lists.length,
		workerPeakBytes,
		workerPeakByMinuteBytes,
		executionsBefore,
		executionsAfter: await executionData(postgres),
		listed: (await rest.listExecutions(workflowId)).length,
	};
}

/** Manual Trigger → Get Many tickets (Return All) → Get Many customers (Return All, once): the same pages, one execution, nothing saved. */
function returnAllWorkflow(): StoredWorkflowJson {
	const credentials = {
		supportTicketApi: { id: 'supportTicketSandbox', name: 'Support Ticket (sandbox)' },
	};
	const get = (name: string, resource: string, x: number, extra: Record<string, unknown> = {}) => ({
		id: `bench-${resource}`,
		name,
		type: 'n8n-nodes-support-ticket.supportTicket',
		typeVersion: 1,
		position: [x, 0] as [number, number],
		parameters: { resource, operation: 'getAll', returnAll: true },
		credentials,
		...extra,
	});
	return {
		id: RETURN_ALL_ID,
		name: 'bench: Return All tickets and customers',
		nodes: [
			{
				id: 'bench-start',
				name: TRIGGER,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			get('Get All Tickets', 'ticket', 240),
			get('Get All Customers', 'customer', 480, { executeOnce: true }),
		],
		connections: {
			[TRIGGER]: { main: [[{ node: 'Get All Tickets', type: 'main', index: 0 }]] },
			'Get All Tickets': { main: [[{ node: 'Get All Customers', type: 'main', index: 0 }]] },
		},
		settings: {
			executionOrder: 'v1',
			saveManualExecutions: false,
			saveDataSuccessExecution: 'none',
		},
		active: false,
	} as unknown as StoredWorkflowJson;
}

/**
 * The Data Tables import's writes alone, for its target (issue 42: the read plus n8n's own writes):
 * generated ticket rows, as many per execution as the import reads, one execution calling the next after its insert as the
 * import does, with the import's own Data Table nodes (table by ID from an expression). The number
 * of executions, rows and rows per execution is pinned on the trigger (`{ page: 0, pages, rows, size }`) and handed down the chain.
 */
function dataTableWritesWorkflow(): StoredWorkflowJson {
	const example = loadWorkflow('examples/large-account-import.json', WRITES_ID);
	const node = (name: string, rename: string, parameters?: Record<string, unknown>) => {
		const found = example.nodes.find((n) => n.name === name);
		if (!found) throw new Error(`large-account-import.json has no node ${name}`);
		const copy = JSON.parse(
			JSON.stringify(found).replaceAll("$('Table st_tickets')", "$('Table')"),
		) as typeof found;
		return { ...copy, name: rename, parameters: { ...copy.parameters, ...parameters } };
	};
	const set = (name: string, fields: Record<string, [string, string]>, executeOnce = false) => ({
		id: `bench-${name}`,
		name,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [0, 0],
		executeOnce,
		parameters: {
			mode: 'manual',
			assignments: {
				assignments: Object.entries(fields).map(([field, [type, value]]) => ({
					id: field,
					name: field,
					type,
					value,
				})),
			},
			options: {},
		},
	});
	const start = `($('Next Page').isExecuted ? $('Next Page') : $('${TRIGGER}')).first().json`;
	const text = 'lorem ipsum dolor sit amet '.repeat(10);
	const row = `({ ticket_id: 'tkt_' + (${start}.page * ${start}.size + i), subject: 'Subject ' + i, description: '${text}', status: 'open', priority: 'normal', customer_id: 'cus_' + i, created_at: $now.toISO(), updated_at: $now.toISO(), updated_ms: $now.toMillis() })`;
	const flow = [
		node('Table st_tickets', 'Table', { tableName: WRITES_TABLE }),
		set('Rows of This Page', {
			rows: [
				'array',
				`={{ Array.from({ length: Math.min(${start}.size, ${start}.rows - ${start}.page * ${start}.size) }, (_, i) => ${row}) }}`,
			],
		}),
		node('One Item per Ticket', 'One Item per Row'),
		node('Insert New Tickets', 'Insert Rows'),
		set(
			'Next Page Number',
			{
				page: ['number', `={{ ${start}.page + 1 }}`],
				pages: ['number', `={{ ${start}.pages }}`],
				rows: ['number', `={{ ${start}.rows }}`],
				size: ['number', `={{ ${start}.size }}`],
			},
			true,
		),
		node('More Pages?', 'More Pages?', {
			conditions: {
				options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
				conditions: [
					{
						id: 'bench-more',
						leftValue: '={{ $json.page }}',
						rightValue: '={{ $json.pages }}',
						operator: { type: 'number', operation: 'lt' },
					},
				],
				combinator: 'and',
			},
		}),
		node('Import Next Page', 'Import Next Page'),
	];
	const to = (name: string) => ({ main: [[{ node: name, type: 'main', index: 0 }]] });
	return {
		...example,
		name: "bench: the Data Tables import's writes alone",
		nodes: [example.nodes.find((n) => n.name === TRIGGER), node('Next Page', 'Next Page'), ...flow],
		connections: {
			[TRIGGER]: to('Table'),
			'Next Page': to('Table'),
			...Object.fromEntries(flow.slice(0, -1).map((n, i) => [n.name, to(flow[i + 1].name)])),
		},
	} as unknown as StoredWorkflowJson;
}

/** How one execution of an import reads tickets: its Get Page node's Pages per Run, from one end or both. */
function ticketPaging(workflow: StoredWorkflowJson): string {
	const { parameters } = workflow.nodes.find((node) => node.name === 'Get Page of Tickets') ?? {};
	const pages = Number(parameters?.pagesPerRun ?? 1);
	const bothEnds = (parameters?.options as { readFromBothEnds?: boolean })?.readFromBothEnds;
	const per = pages === 1 ? 'one page' : `${pages} pages`;
	return bothEnds ? `${per} from each end per execution` : `${per} per execution`;
}

function loadWorkflow(file: string, id: string): StoredWorkflowJson {
	const json = JSON.parse(
		readFileSync(path.isAbsolute(file) ? file : repoPath(file), 'utf8'),
	) as StoredWorkflowJson;
	return { ...json, id, active: false };
}

type Section = {
	edition: string;
	paging: string;
	tickets: number;
	customers: number;
	importRun: RunFigures;
	floor?: RunFigures;
	floorError?: string;
	/** Data Tables: n8n's Data Table node writing as many rows alone (dataTableWritesWorkflow). */
	writesAlone?: RunFigures;
	note?: string;
};

const f1 = (n: number): string => n.toFixed(1);
const thousands = (n: number): string => Math.round(n).toLocaleString('en');
const mib = (bytes: number): string => `${f1(bytes / MIB)} MiB`;

function render(
	run: RunFacts,
	version: string,
	latencyMs: number,
	sections: Section[],
	pending: string[],
): string {
	const rows = sections.flatMap((s) => {
		const pages = Math.ceil(s.tickets / PAGE) + Math.ceil(s.customers / PAGE);
		const line = (label: string, r: RunFigures, ratio: string): string[] => [
			label,
			`${thousands(s.tickets)} + ${thousands(s.customers)}`,
			`${f1(r.seconds)} s`,
			thousands(s.tickets / r.seconds),
			`${thousands(r.calls)} (${thousands(pages)})`,
			mib(r.workerPeakBytes),
			`${thousands(r.executionsAfter.entityRows - r.executionsBefore.entityRows)} rows (${thousands(r.executionsAfter.softDeleted - r.executionsBefore.softDeleted)} deleted, not yet pruned), ${mib(r.executionsAfter.bytes - r.executionsBefore.bytes)}; ${r.listed} listed`,
			ratio,
		];
		const ratio = s.floor ? `**${(s.importRun.seconds / s.floor.seconds).toFixed(2)}×**` : 'n/a';
		const besideWrites =
			s.floor && s.writesAlone
				? `; **${(s.importRun.seconds / (s.floor.seconds + s.writesAlone.seconds)).toFixed(2)}×** floor + writes alone`
				: '';
		return [
			line(`${s.edition}, ${s.paging}`, s.importRun, ratio + besideWrites),
			...(s.floor ? [line(`Return All, one chain (floor), one execution`, s.floor, '1')] : []),
			...(s.writesAlone
				? [
						line(
							'Data Table node writing as many rows alone, executions of the same size',
							s.writesAlone,
							'',
						),
					]
				: []),
		];
	});
	const notes = sections.flatMap((s) => [
		...(s.floorError
			? [`- ${s.edition} at ${thousands(s.tickets)}: the Return All floor failed: ${s.floorError}`]
			: []),
		...(s.note ? [`- ${s.note}`] : []),
	]);
	const flat = (() => {
		const pg = sections.filter((s) => s.edition === 'PostgreSQL');
		if (pg.length < 2) return [];
		const [small, large] = [pg[0], pg[pg.length - 1]];
		const growth = large.importRun.workerPeakBytes / small.importRun.workerPeakBytes;
		const byMinute = large.importRun.workerPeakByMinuteBytes
			.map((bytes) => (bytes / MIB).toFixed(0))
			.join(', ');
		return [
			`Worker peak RSS from ${thousands(small.tickets)} to ${thousands(large.tickets)} tickets: ${mib(small.importRun.workerPeakBytes)} → ${mib(large.importRun.workerPeakBytes)}, **${growth.toFixed(2)}×** (target ≤ 1.25×).`,
			`The worker's peak so far during the ${thousands(large.tickets)} import, read once a minute (MiB): ${byMinute || 'none (under a minute)'}.`,
		];
	})();
	return `${[
		'# Importing a large account: page by page, one execution after another, in real n8n queue mode',
		`Written by \`${run.command}\` on ${run.startedAt.toISOString()} in ${Math.round(run.durationSeconds)} s (n8n ${version} queue mode: main + worker (concurrency 5) + webhook process, PostgreSQL, Redis; the sandbox in its own process, every API answer ${latencyMs} ms late). Load average before / after: ${run.loadBefore} → ${run.loadAfter}. Machine: ${run.machine}`,
		"Each import runs as shipped (published, started once by hand, manual runs go to the worker): every execution reads as many pages of 100 as its row says (*Pages per Run*) and starts the next execution without waiting (PostgreSQL: with the next position, before it writes its page, tickets and customers at the same time, tickets from both ends at once; Data Tables: after it wrote its pages and saved the position, customers after tickets); successful executions are not saved. The floor is our node's Return All of the same tickets and customers in one execution, one chain each, same latency: a cursor chain is sequential, so one chain cannot read its pages faster. Reading tickets from both ends at once (*Read From Both Ends*) halves the ticket chain's round trips, so the PostgreSQL import can go below it: at best about half the ticket chain (⌈tickets/100⌉/2 round trips, ~0.42× at these sizes). Calls: list calls made (pages: ⌈tickets/100⌉ + ⌈customers/100⌉). Worker peak: VmHWM of the worker process, restarted before each run. Execution data: rows added to `execution_entity` and bytes added to `execution_entity` + `execution_data` (PostgreSQL relation sizes, indexes and TOAST included) by the run.",
		table(
			[
				'run',
				'tickets + customers',
				'wall time',
				'tickets/s',
				'list calls (pages)',
				'worker peak RSS',
				'execution data added',
				'import ÷ floor',
			],
			rows,
		),
		...flat,
		...(notes.length ? [notes.join('\n')] : []),
		...(pending.length ? [`Not run (yet): ${pending.join('; ')}.`] : []),
	].join('\n\n')}\n`;
}

async function main(): Promise<void> {
	checkOptions([
		'tickets',
		'data-tables',
		'latency',
		'postgres-workflow',
		'data-tables-workflow',
		'out',
	]);
	const sizes = option('tickets', '100000,1000000')
		.split(',')
		.map(Number)
		.filter((n) => n > 0);
	const dataTableSizes = option('data-tables', '10000,50000')
		.split(',')
		.map(Number)
		.filter((n) => n > 0);
	const latencyMs = Number(option('latency', '50'));
	const postgresWorkflow = option(
		'postgres-workflow',
		'examples/large-account-import-postgres.json',
	);
	const dataTablesWorkflow = option('data-tables-workflow', 'examples/large-account-import.json');
	const out = option('out', repoPath('bench', 'large-import-results.md'));
	const run = startRun('--large-import');
	const workDir = mkdtempSync(path.join(tmpdir(), 'bench-large-import-'));
	const sections: Section[] = [];
	const pending = [
		...sizes.map((n) => `PostgreSQL at ${thousands(n)}`),
		...dataTableSizes.map((n) => `Data Tables at ${thousands(n)}`),
	];
	const write = (): void =>
		writeFileSync(out, render(run.finish(), PRIMARY_N8N_VERSION, latencyMs, sections, pending));
	const stops: Array<() => Promise<void>> = [];
	const packed = await packPackage();
	try {
		const install = await ensureN8n(PRIMARY_N8N_VERSION, log);
		const postgres = await startPostgres(workDir);
		stops.push(postgres.stop);
		const redis = await startRedis(workDir);
		stops.push(redis.stop);
		const folders = await createFolders({ install, packed, postgres, redis, workDir });
		const sandboxPort = await freePort();
		const access = {
			baseUrl: `http://127.0.0.1:${sandboxPort}`,
			apiKey: DEFAULT_API_KEY,
			apiSecret: DEFAULT_API_SECRET,
		};
		const postgresCredential = {
			id: 'syncPostgres',
			name: 'Postgres (the copy)',
			type: 'postgres',
			data: {
				host: postgres.host,
				port: postgres.port,
				database: postgres.database,
				user: postgres.user,
				password: '',
				ssl: 'disable',
				maxConnections: 10,
				allowUnauthorizedCerts: false,
				sshTunnel: false,
			},
		};
		await importCredentials(folders.main, [...sandboxCredentials(access), postgresCredential]);
		const imports = [
			...(sizes.length ? [loadWorkflow(postgresWorkflow, POSTGRES_ID)] : []),
			loadWorkflow(dataTablesWorkflow, DATA_TABLES_ID),
			...(dataTableSizes.length ? [dataTableWritesWorkflow()] : []),
		];
		await importWorkflows(folders.main, [...imports, returnAllWorkflow()]);
		// Both call themselves as sub-workflows from the second page on: n8n 2.x wants them published.
		for (const workflow of imports) await activateWorkflow(folders.main, workflow.id);
		const cluster = await startCluster(folders, workDir, log);
		stops.push(cluster.stop);
		const rest = new N8nRestClient(cluster.main.url);
		await rest.setupOwner(DEV_OWNER);
		log(
			`n8n ${install.version} queue mode: main ${cluster.main.url}, PostgreSQL ${postgres.version}; sandbox latency ${latencyMs} ms`,
		);

		const position = async (): Promise<string | undefined> => {
			const exists = await postgres.query<{ name: string | null }>(
				"SELECT to_regclass('st_import_state')::text AS name",
			);
			if (!exists[0]?.name) return undefined;
			// Tickets and customers are read at the same time: done once both chains are.
			const [row] = await postgres.query<{ done: number }>(
				"SELECT count(*)::int AS done FROM st_import_state WHERE key IN ('tickets_position', 'customers_position') AND value = 'done'",
			);
			return row.done === 2 ? 'done' : 'importing';
		};
		/** Reports an import as soon as it is measured, then the floor of the same records (last: it may not fit the worker at the largest sizes, every ticket in one execution). */
		const record = async (
			edition: Section['edition'],
			workflowId: string,
			sandbox: Sandbox,
			importRun: Section['importRun'],
		): Promise<void> => {
			const workflow = imports.find((w) => w.id === workflowId);
			const section: Section = {
				edition,
				paging: workflow ? ticketPaging(workflow) : 'one page per execution',
				tickets: sandbox.tickets,
				customers: sandbox.customers,
				importRun,
			};
			sections.push(section);
			pending.shift();
			write();
			await floor(section, sandbox);
			write();
		};
		const floor = async (section: Section, sandbox: Sandbox): Promise<void> => {
			try {
				section.floor = await measure(
					cluster,
					rest,
					postgres,
					sandbox,
					RETURN_ALL_ID,
					async () => true,
				);
				log(
					`Return All (floor): ${f1(section.floor.seconds)} s, ${section.floor.calls} calls, worker peak ${mib(section.floor.workerPeakBytes)}`,
				);
			} catch (error) {
				section.floorError = String(error).slice(0, 300);
				log(`Return All failed: ${section.floorError}`);
			}
		};

		for (const tickets of sizes) {
			const started = performance.now();
			const sandbox = await startSandbox(sandboxPort, tickets, latencyMs);
			log(
				`sandbox seeded with ${thousands(sandbox.tickets)} tickets and ${thousands(sandbox.customers)} customers in ${f1((performance.now() - started) / 1000)} s`,
			);
			try {
				await psql(
					postgres,
					'DROP TABLE IF EXISTS st_tickets, st_customers, st_import_state, st_import_pages',
				);
				const importRun = await measure(
					cluster,
					rest,
					postgres,
					sandbox,
					POSTGRES_ID,
					async () => (await position()) === 'done',
				);
				const [copied] = await postgres.query<{ tickets: number; customers: number }>(
					'SELECT (SELECT count(*) FROM st_tickets)::int AS tickets, (SELECT count(*) FROM st_customers)::int AS customers',
				);
				if (copied.tickets !== sandbox.tickets || copied.customers !== sandbox.customers) {
					throw new Error(
						`the copy has ${copied.tickets} tickets and ${copied.customers} customers, the service ${sandbox.tickets} and ${sandbox.customers}`,
					);
				}
				log(
					`PostgreSQL import of ${thousands(tickets)}: ${f1(importRun.seconds)} s, ${importRun.calls} calls, worker peak ${mib(importRun.workerPeakBytes)}, copy complete`,
				);
				await record('PostgreSQL', POSTGRES_ID, sandbox, importRun);
			} finally {
				log('stopping the sandbox');
				await sandbox.stop();
				log('sandbox stopped');
			}
		}

		for (const dataTableTickets of dataTableSizes) {
			// Each size into new tables: rows of the last size would be compared and updated.
			for (const table of ['st_tickets', 'st_customers', 'st_state']) await dropTable(rest, table);
			log(`starting the sandbox with ${thousands(dataTableTickets)} tickets`);
			const sandbox = await startSandbox(sandboxPort, dataTableTickets, latencyMs);
			try {
				const importRun = await measure(
					cluster,
					rest,
					postgres,
					sandbox,
					DATA_TABLES_ID,
					async () => {
						const state = await readTable(rest, 'st_state').catch(() => []);
						return state.find((row) => row.key === 'large_import_position')?.value === 'done';
					},
				);
				const copied = (await readTable(rest, 'st_tickets')).length;
				if (copied !== sandbox.tickets)
					throw new Error(
						`the Data Table has ${copied} ticket rows, the service ${sandbox.tickets} tickets`,
					);
				log(
					`Data Tables import of ${thousands(dataTableTickets)}: ${f1(importRun.seconds)} s, ${importRun.calls} calls, worker peak ${mib(importRun.workerPeakBytes)}, copy complete`,
				);
				await record('Data Tables', DATA_TABLES_ID, sandbox, importRun);
				// As many rows as the import wrote, as many per execution as it reads (Pages per Run).
				const workflow = imports.find((w) => w.id === DATA_TABLES_ID);
				const size =
					PAGE *
					Number(
						workflow?.nodes.find((n) => n.name === 'Get Page of Tickets')?.parameters.pagesPerRun ??
							1,
					);
				const rows = sandbox.tickets + sandbox.customers;
				const pages = Math.ceil(sandbox.tickets / size) + Math.ceil(sandbox.customers / size);
				await dropTable(rest, WRITES_TABLE);
				const writesAlone = await measure(
					cluster,
					rest,
					postgres,
					sandbox,
					WRITES_ID,
					async () => (await countRows(rest, WRITES_TABLE)) === rows,
					{ [TRIGGER]: [{ json: { page: 0, pages, rows, size } }] },
				);
				log(`Data Table node writing ${thousands(rows)} rows alone: ${f1(writesAlone.seconds)} s`);
				sections[sections.length - 1].writesAlone = writesAlone;
				write();
			} finally {
				await sandbox.stop();
			}
		}
	} finally {
		for (const stop of stops.reverse())
			await stop().catch((error: unknown) => log(`could not stop: ${String(error)}`));
		await stopEveryService();
		removePackedPackage(packed);
		write();
		rmSync(workDir, { recursive: true, force: true });
	}
	log(`wrote ${out}`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
