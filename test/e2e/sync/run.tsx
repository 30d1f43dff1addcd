// `npm run test:sync`: the sync examples keep Data Tables or PostgreSQL equal to the service in real n8n 2.41.1; no flags
// run CI's set, `--all` the matrix, `--mode/--replies/--proof/--timestamps` part of it (test/e2e/README.md).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	type Sandbox,
	type SandboxOptions,
	startSandbox,
	TIMESTAMP_FORMATS,
	type TimestampFormat,
} from '../../../sandbox';
import { exampleWorkflows, findWorkflow, sandboxCredentials, type WorkflowFile } from '../fixtures';
import {
	activateWorkflow,
	type CredentialImport,
	importCredentials,
	importWorkflows,
} from '../n8n/cli';
import { ensureN8n, PRIMARY_N8N_VERSION } from '../n8n/n8nInstall';
import { DEV_OWNER, N8nRestClient } from '../n8n/restClient';
import { startN8n } from '../n8n/server';
import { createUserFolder, installCommunityPackage, removeUserFolder } from '../n8n/userFolder';
import { packPackage, type PackedPackage, removePackedPackage } from '../packPackage';
import { PinnableClock } from '../pinnableClock';
import { startQueueN8n } from '../queue/queueCluster';
import type { PostgresServer } from '../queue/services/postgresServer';
import { stopEveryService, stopInReverse } from '../queue/services/serviceProcess';
import { reportTotals, runMain, Suite, type Totals } from '../suite';
import {
	printFigures,
	proveSync,
	secondRows,
	type SyncStore,
	type SyncTarget,
	type SyncWorkflows,
	syncWorkflows,
} from './syncProof';
import { mustEqual } from './compareCopy';
import { INCREMENTAL_EXAMPLE, proveIncremental } from './incrementalProof';
import {
	POLLING_EXAMPLE,
	POLLING_POSTGRES_EXAMPLE,
	pollingWorkflows,
	printPollingFigures,
	provePolling,
} from './pollingProof';
import { dataTableStore, postgresStore } from './syncTables';
import { LARGE_IMPORT_EXAMPLE, LARGE_IMPORT_TICKETS, proveLargeImport } from './largeImportProof';

const SEEDED_TICKETS = 2000;
const INCREMENTAL_SEEDED_TICKETS = 250;

type Mode = 'regular' | 'queue';
/** Whether a reply moves its ticket's updated_at: the spec leaves it open (docs/api.md#fields), the proof runs both. */
type Replies = 'moving' | 'still';

const log = (line: string): void => console.log(`  ${line}`);

interface N8nWorkflows {
	toImport: WorkflowFile[];
	/** Ids of the workflows to activate. */
	active: string[];
	/** Credentials beside the sandbox's, e.g. one for the PostgreSQL n8n runs on (queue mode). */
	credentials?: (postgres?: PostgresServer) => CredentialImport[];
}

/** Where one proof runs: its suite, n8n's mode, the sandbox's timestamp format, the packed package and the work folder. */
interface ProofRun {
	suite: Suite;
	mode: Mode;
	timestampFormat: TimestampFormat;
	packed: () => PackedPackage;
	workDir: string;
}

/** The webhook and reconcile workflows active; the PostgreSQL import published (it calls itself, and 2.x runs only published sub-workflows). */
function syncSetUp(workflows: SyncWorkflows): N8nWorkflows {
	const toImport = [workflows.initialImport, workflows.webhooks, workflows.reconcile];
	const active = [workflows.webhooks.id, workflows.reconcile.id];
	if (workflows.store === 'dataTables') return { toImport, active };
	return {
		toImport,
		active: [workflows.initialImport.id, ...active],
		credentials: postgresCredential,
	};
}

/** Runs `body` against a fresh sandbox and a fresh n8n of the run's mode with `workflows` imported and activated; stops both. */
async function inFreshN8n<T>(
	run: ProofRun,
	name: string,
	sandboxOptions: SandboxOptions,
	workflows: N8nWorkflows,
	body: (target: SyncTarget, sandbox: Sandbox) => Promise<T>,
): Promise<T> {
	const sandbox = await startSandbox({ ...sandboxOptions, timestampFormat: run.timestampFormat });
	const stops: Array<() => Promise<void>> = [() => sandbox.stop()];
	const workDir = path.join(run.workDir, `${run.mode}-${name}`);
	const toImport = workflows.toImport.map((w) => w.json);
	const credentials = (postgres?: PostgresServer) => [
		...sandboxCredentials(sandbox),
		...(workflows.credentials?.(postgres) ?? []),
	];
	try {
		const install = await ensureN8n(PRIMARY_N8N_VERSION, log);
		const packed = run.packed();
		mkdirSync(workDir, { recursive: true });
		if (run.mode === 'queue') {
			const { rest, cluster, postgres } = await startQueueN8n(
				{ install, packed, workDir, credentials, workflows: toImport, active: workflows.active },
				stops,
				log,
			);
			return await body({ rest, webhookBaseUrl: cluster.webhook.url, postgres }, sandbox);
		}
		const folder = createUserFolder(install, { root: path.join(workDir, 'regular') });
		stops.push(async () => removeUserFolder(folder));
		await installCommunityPackage(folder, packed.tarball, packed.version);
		await importCredentials(folder, credentials());
		await importWorkflows(folder, toImport);
		for (const id of workflows.active) await activateWorkflow(folder, id);
		const running = await startN8n(folder);
		stops.push(running.stop);
		const rest = new N8nRestClient(running.url);
		await rest.setupOwner(DEV_OWNER);
		log(`n8n ${install.version} (regular mode, SQLite) on ${running.url}`);
		return await body({ rest, webhookBaseUrl: running.url }, sandbox);
	} finally {
		await stopInReverse(stops);
		if (run.mode === 'queue') await stopEveryService();
	}
}

function addProof(run: ProofRun, replies: Replies, store: SyncStore = 'dataTables'): void {
	const { mode, timestampFormat } = run;
	const what =
		replies === 'moving'
			? "replies move the ticket's updated_at"
			: "replies leave the ticket's updated_at alone";
	const into =
		store === 'postgres'
			? 'PostgreSQL (large-account-import-postgres stopped part-way and resumed)'
			: 'the Data Tables';
	run.suite.test(
		`${mode} mode, ${what}, timestamps ${timestampFormat}: after chaos, the forced import/webhook race and one reconcile ${into} equal the service (0 missing, 0 extra, 0 stale, 0 second rows)`,
		async () => {
			const workflows = syncWorkflows(exampleWorkflows(), store);
			const replyMovesTicket = replies === 'moving';
			const figures = await inFreshN8n(
				run,
				`${replies}-${store}`,
				{ seed: SEEDED_TICKETS },
				syncSetUp(workflows),
				(target, sandbox) => proveSync(target, sandbox, workflows, replyMovesTicket, log),
			);
			for (const line of printFigures(`${mode} mode, ${store}, ${what}`, figures)) log(line);
			mustEqual('the copy differs', figures);
			if (figures.watermark.saved !== figures.watermark.newest)
				throw new Error(
					`the reconcile saved the watermark ${figures.watermark.saved}, not ${figures.watermark.newest}`,
				);
			if (figures.driver.total < 500)
				throw new Error(`only ${figures.driver.total} changes during the run`);
			if (!figures.forcedRace?.replies)
				throw new Error(
					'the forced race was not set up: no replies to tickets of the next import page',
				);
			if (store === 'postgres') {
				// The primary key: not even before the reconcile can an id have a second row.
				const second =
					secondRows(figures.beforeReconcile.tickets) +
					secondRows(figures.beforeReconcile.customers);
				if (second > 0) throw new Error(`${second} ids had a second row before the reconcile`);
				const chained = figures.chainedImport;
				if (!chained) throw new Error('no figures of the chained import');
				// Beyond the pages, per chain: its failed execution, the two read ahead of the saves and the first of the replaced
				// run (Pages per Run each, from each end for tickets), 2 where the ends meet; without the run check every page after
				// the stop is read twice.
				const extra = chained.listCalls - chained.pagesNeeded;
				const ticketPages = chained.pagesPerRun * (chained.ticketsFromBothEnds ? 2 : 1);
				if (extra > 4 * (ticketPages + chained.pagesPerRun) + 2)
					throw new Error(
						`the import read ${chained.listCalls} list pages for ${chained.pagesNeeded} pages: did both chains started by hand go on?`,
					);
			} else if (secondRows(figures.beforeReconcile.tickets) === 0) {
				throw new Error('no ticket had a second row before the reconcile: the sweep was not shown');
			}
			const { deliveries, dropped, duplicated, reordered } = figures.deliveries;
			// At least 9 %: the seeded draws of 13 % rates give about 10 % (66 repeats of 660 events, 66 of 663).
			if (dropped < deliveries * 0.09 || duplicated < deliveries * 0.09 || reordered === 0) {
				throw new Error(
					`too little chaos: ${dropped} dropped, ${duplicated} duplicated, ${reordered} reordered of ${deliveries}`,
				);
			}
		},
	);
}

function addIncrementalProof(run: ProofRun): void {
	run.suite.test(
		`${run.mode} mode, timestamps ${run.timestampFormat}: ${INCREMENTAL_EXAMPLE} copies each ticket once, one created in the watermark's millisecond included; the watermark moves`,
		async () => {
			const clock = new PinnableClock();
			const workflow = findWorkflow(exampleWorkflows(), INCREMENTAL_EXAMPLE);
			await inFreshN8n(
				run,
				'incremental',
				{ seed: INCREMENTAL_SEEDED_TICKETS, now: clock.now },
				{ toImport: [workflow], active: [] },
				(target, sandbox) => proveIncremental(target, sandbox, clock, workflow, log),
			);
		},
	);
}

/** The Postgres credential sync-by-polling-postgres.json refers to, on n8n's own PostgreSQL (trust on loopback). */
function postgresCredential(postgres?: PostgresServer): CredentialImport[] {
	if (!postgres)
		throw new Error(`${POLLING_POSTGRES_EXAMPLE} runs in queue mode only (PostgreSQL)`);
	return [
		{
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
		},
	];
}

function addPollingProof(run: ProofRun, into: SyncStore): void {
	const example = into === 'postgres' ? POLLING_POSTGRES_EXAMPLE : POLLING_EXAMPLE;
	const control = into === 'postgres' ? '' : ', where a plain upsert by id keeps the older one';
	run.suite.test(
		`${run.mode} mode, timestamps ${run.timestampFormat}: ${example} alone keeps the copy equal to the service while the first polls import and 600 changes come (0 missing, 0 extra, 0 stale), also when an older execution finishes last${control}`,
		async () => {
			const clock = new PinnableClock();
			const workflows = pollingWorkflows(exampleWorkflows(), into);
			const toImport = workflows.control
				? [workflows.polling, workflows.control]
				: [workflows.polling];
			const credentials = into === 'postgres' ? postgresCredential : undefined;
			await inFreshN8n(
				run,
				`polling-${into}`,
				{ seed: SEEDED_TICKETS, now: clock.now },
				{ toImport, active: [workflows.polling.id], credentials },
				async (target, sandbox) => {
					const copy =
						target.postgres && into === 'postgres'
							? postgresStore(target.postgres)
							: dataTableStore(target.rest);
					const figures = await provePolling(target, sandbox, clock, workflows, copy, log);
					for (const line of printPollingFigures(`${run.mode} mode, ${example}`, figures))
						log(line);
					mustEqual('after one more poll the copy differs', figures);
					if (figures.changes < 600)
						throw new Error(`only ${figures.changes} changes during the run`);
				},
			);
		},
	);
}

/** examples/large-account-import.json, published (it calls itself per page), stopped part-way by a failed page and resumed. */
function addLargeImportProof(run: ProofRun): void {
	run.suite.test(
		`${run.mode} mode, timestamps ${run.timestampFormat}: ${LARGE_IMPORT_EXAMPLE} imports ${LARGE_IMPORT_TICKETS} tickets one page per execution, resumes after a failed page from the saved cursor, and n8n keeps no execution per page`,
		async () => {
			const workflow = findWorkflow(exampleWorkflows(), LARGE_IMPORT_EXAMPLE);
			await inFreshN8n(
				run,
				'large-import',
				{ seed: LARGE_IMPORT_TICKETS },
				{ toImport: [workflow], active: [workflow.id] },
				(target, sandbox) => proveLargeImport(target, sandbox, workflow, log),
			);
		},
	);
}

const PROOFS = [
	'webhooks',
	'webhooks-postgres',
	'incremental',
	'polling',
	'polling-postgres',
	'large-import',
] as const;
type Proof = (typeof PROOFS)[number];

/** Every format the node reads is run by some proof; the two CI runs cover both kinds that are not ISO with a zone. */
function defaultTimestamps(mode: Mode, proof: Proof): TimestampFormat {
	const formats: Record<Proof, TimestampFormat> = {
		webhooks: mode === 'regular' ? 'epoch-seconds' : 'iso',
		'webhooks-postgres': 'iso-without-zone',
		incremental: 'iso',
		polling: 'epoch-milliseconds',
		'polling-postgres': 'epoch-seconds',
		'large-import': 'iso',
	};
	return formats[proof];
}

interface Requested {
	modes: Mode[];
	replies: Replies[];
	repliesGiven: boolean;
	proofs: readonly Proof[];
	/** No flags: CI's set, one proof per store (Data Tables in regular mode, PostgreSQL in queue mode). */
	ciSet: boolean;
	timestamps?: TimestampFormat;
}

/** The flags that choose part of the matrix, each with the values it takes; a flag may be given more than once. */
const CHOICES = {
	'--mode': ['regular', 'queue'],
	'--replies': ['moving', 'still'],
	'--proof': PROOFS,
	'--timestamps': TIMESTAMP_FORMATS,
} as const;

function requested(argv: string[]): Requested {
	if (argv.length === 0)
		return {
			modes: ['regular', 'queue'],
			replies: ['still'],
			repliesGiven: true,
			proofs: ['webhooks', 'webhooks-postgres'],
			ciSet: true,
		};
	const given: Partial<Record<keyof typeof CHOICES, string[]>> = {};
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === '--all' && argv.length > 1)
			throw new Error('--all runs every proof: give it alone');
		if (argv[i] === '--all') continue;
		const flag = argv[i] as keyof typeof CHOICES;
		if (!(CHOICES[flag] as readonly string[] | undefined)?.includes(argv[i + 1]))
			throw new Error(
				`usage: npm run test:sync [-- --all | ${Object.entries(CHOICES)
					.map(([f, values]) => `[${f} ${values.join('|')}]...`)
					.join(' ')}]`,
			);
		(given[flag] ??= []).push(argv[++i]);
	}
	return {
		modes: (given['--mode'] ?? ['regular', 'queue']) as Mode[],
		replies: (given['--replies'] ?? ['moving', 'still']) as Replies[],
		repliesGiven: given['--replies'] !== undefined,
		proofs: (given['--proof'] ?? PROOFS) as readonly Proof[],
		ciSet: false,
		timestamps: given['--timestamps']?.at(-1) as TimestampFormat | undefined,
	};
}

async function main(): Promise<void> {
	const started = Date.now();
	const { modes, replies, repliesGiven, proofs, ciSet, timestamps } = requested(
		process.argv.slice(2),
	);
	const workDir = mkdtempSync(path.join(tmpdir(), 'n8n-sync-'));
	let packed: PackedPackage | undefined;
	const suite = new Suite(
		`n8n ${PRIMARY_N8N_VERSION}: a copy in Data Tables kept equal to the service (examples/sync-*.json, incremental-import.json)`,
	);
	const getPacked = (): PackedPackage => {
		if (!packed) throw new Error('not packed');
		return packed;
	};
	const run = (mode: Mode, timestampFormat: TimestampFormat): ProofRun => ({
		suite,
		mode,
		timestampFormat,
		packed: getPacked,
		workDir,
	});
	for (const mode of modes) {
		const format = (proof: Proof): ProofRun =>
			run(mode, timestamps ?? defaultTimestamps(mode, proof));
		// CI's set runs the Data Table edition in regular mode only.
		if (proofs.includes('webhooks') && !(ciSet && mode === 'queue'))
			for (const setting of replies) addProof(format('webhooks'), setting);
		if (proofs.includes('incremental')) addIncrementalProof(format('incremental'));
		if (proofs.includes('polling')) addPollingProof(format('polling'), 'dataTables');
		// PostgreSQL is there in queue mode (n8n's own database): the copy goes into it.
		if (proofs.includes('polling-postgres') && mode === 'queue')
			addPollingProof(format('polling-postgres'), 'postgres');
		// Its writes do not depend on the reply behaviour (no second row can arise): by default once, replies still.
		const postgresReplies: Replies[] = repliesGiven ? replies : ['still'];
		if (proofs.includes('webhooks-postgres') && mode === 'queue')
			for (const setting of postgresReplies)
				addProof(format('webhooks-postgres'), setting, 'postgres');
		// Regular mode only: the chain of executions is the same on a worker (bench/largeImport.tsx runs it in queue mode).
		if (proofs.includes('large-import') && mode === 'regular')
			addLargeImportProof(format('large-import'));
	}
	let totals: Totals;
	try {
		packed = await packPackage();
		totals = await suite.run();
	} catch (error) {
		totals = suite.failAll(error);
	} finally {
		if (packed) removePackedPackage(packed);
	}
	if (totals.failed === 0 && !process.env.E2E_KEEP_USER_FOLDER)
		rmSync(workDir, { recursive: true, force: true });
	else console.log(`\nlogs and user folders kept in ${workDir}`);
	reportTotals(
		totals,
		`sync proof (${modes.join(', ')}; ${proofs.join(', ')}; replies ${replies.join(', ')}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
	);
}

runMain(main);
