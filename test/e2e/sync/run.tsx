// `npm run test:sync`: the sync examples keep Data Tables or PostgreSQL equal to the service in real n8n 2.41.1; no flags
// run CI's set, `--all` the matrix, `--mode/--replies/--proof/--timestamps` part of it (test/e2e/README.md).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startSandbox, type Sandbox, TIMESTAMP_FORMATS, type TimestampFormat } from '../../../sandbox';
import { exampleWorkflows, sandboxCredentials, type WorkflowFile } from '../fixtures';
import { activateWorkflow, type CredentialImport, importCredentials, importWorkflows } from '../n8n/cli';
import { ensureN8n, PRIMARY_N8N_VERSION } from '../n8n/n8nInstall';
import { DEV_OWNER, N8nRestClient } from '../n8n/restClient';
import { startN8n } from '../n8n/server';
import { createUserFolder, installCommunityPackage, removeUserFolder } from '../n8n/userFolder';
import { packPackage, type PackedPackage, removePackedPackage } from '../packPackage';
import { PinnableClock } from '../pinnableClock';
import { createFolders, startCluster } from '../queue/queueCluster';
import { type PostgresServer, startPostgres } from '../queue/services/postgresServer';
import { startRedis } from '../queue/services/redisServer';
import { stopEveryService } from '../queue/services/serviceProcess';
import { reportTotals, runMain, Suite, type Totals } from '../suite';
import { DEFAULT_PROOF, isEqual, printFigures, proveSync, secondRows, type SyncFigures, type SyncStore, type SyncTarget, syncWorkflows } from './syncProof';
import { describeDifference } from './compareCopy';
import { INCREMENTAL_EXAMPLE, incrementalWorkflow, proveIncremental } from './incrementalProof';
import { POLLING_EXAMPLE, POLLING_POSTGRES_EXAMPLE, pollingWorkflows, printPollingFigures, provePolling } from './pollingProof';
import { dataTableStore, postgresStore } from './syncTables';
import { checkLargeImport, LARGE_IMPORT_EXAMPLE, LARGE_IMPORT_TICKETS, largeImportWorkflow, proveLargeImport } from './largeImportProof';

const SEEDED_TICKETS = 2000;
const INCREMENTAL_SEEDED_TICKETS = 250;

type Mode = 'regular' | 'queue';

function log(line: string): void {
	console.log(`  ${line}`);
}

interface N8nWorkflows {
	toImport: WorkflowFile[];
	/** Ids of the workflows to activate. */
	active: string[];
	/** Credentials beside the sandbox's, e.g. one for the PostgreSQL n8n runs on (queue mode). */
	credentials?: (postgres: PostgresServer | undefined) => CredentialImport[];
}

/** The webhook and reconcile workflows active; the PostgreSQL import published (it calls itself, and 2.x runs only published sub-workflows). */
function syncSetUp(store: SyncStore): N8nWorkflows {
	const workflows = syncWorkflows(exampleWorkflows(), store);
	const toImport = [workflows.initialImport, workflows.webhooks, workflows.reconcile];
	const active = [workflows.webhooks.id, workflows.reconcile.id];
	if (store === 'dataTables') return { toImport, active };
	return { toImport, active: [workflows.initialImport.id, ...active], credentials: postgresCredential };
}

/** Runs `body` against a fresh n8n set-up of `mode` with `workflows` imported and activated. */
async function withN8n(mode: Mode, packed: PackedPackage, sandbox: Sandbox, workDir: string, workflows: N8nWorkflows, body: (target: SyncTarget) => Promise<void>): Promise<void> {
	const install = await ensureN8n(PRIMARY_N8N_VERSION, log);
	const toImport = workflows.toImport.map((w) => w.json);
	const { active } = workflows;
	const stops: Array<() => Promise<void>> = [];
	mkdirSync(workDir, { recursive: true });
	try {
		if (mode === 'regular') {
			const folder = createUserFolder(install, { root: path.join(workDir, 'regular') });
			stops.push(async () => removeUserFolder(folder));
			await installCommunityPackage(folder, packed.tarball, packed.version);
			await importCredentials(folder, [...sandboxCredentials(sandbox), ...(workflows.credentials?.(undefined) ?? [])]);
			await importWorkflows(folder, toImport);
			for (const id of active) await activateWorkflow(folder, id);
			const running = await startN8n(folder);
			stops.push(running.stop);
			const rest = new N8nRestClient(running.url);
			await rest.setupOwner(DEV_OWNER);
			log(`n8n ${install.version} (regular mode, SQLite) on ${running.url}`);
			await body({ rest, webhookBaseUrl: running.url });
		} else {
			const postgres = await startPostgres(workDir);
			stops.push(postgres.stop);
			const redis = await startRedis(workDir);
			stops.push(redis.stop);
			const folders = await createFolders({ install, packed, postgres, redis, workDir });
			await importCredentials(folders.main, [...sandboxCredentials(sandbox), ...(workflows.credentials?.(postgres) ?? [])]);
			await importWorkflows(folders.main, toImport);
			for (const id of active) await activateWorkflow(folders.main, id);
			const cluster = await startCluster(folders, workDir, log);
			stops.push(cluster.stop);
			const rest = new N8nRestClient(cluster.main.url);
			await rest.setupOwner(DEV_OWNER);
			log(`n8n ${install.version} in queue mode: main ${cluster.main.url}, webhook process ${cluster.webhook.url}, PostgreSQL ${postgres.version}`);
			await body({ rest, webhookBaseUrl: cluster.webhook.url, postgres });
		}
	} finally {
		for (const stop of stops.reverse()) await stop().catch((error: unknown) => log(`could not stop: ${String(error)}`));
		if (mode === 'queue') await stopEveryService();
	}
}

/** Whether a reply moves its ticket's updated_at: the spec leaves it open (docs/api.md#fields), the proof runs both. */
type Replies = 'moving' | 'still';

function addProof(suite: Suite, mode: Mode, replies: Replies, packed: () => PackedPackage, workDir: string, timestampFormat: TimestampFormat, store: SyncStore = 'dataTables'): void {
	const what = replies === 'moving' ? "replies move the ticket's updated_at" : "replies leave the ticket's updated_at alone";
	const into = store === 'postgres' ? 'PostgreSQL (large-account-import-postgres stopped part-way and resumed)' : 'the Data Tables';
	suite.test(`${mode} mode, ${what}, timestamps ${timestampFormat}: after chaos, the forced import/webhook race and one reconcile ${into} equal the service (0 missing, 0 extra, 0 stale, 0 second rows)`, async () => {
		const sandbox = await startSandbox({ seed: SEEDED_TICKETS, timestampFormat });
		let figures: SyncFigures | undefined;
		try {
			await withN8n(mode, packed(), sandbox, path.join(workDir, `${mode}-${replies}-${store}`), syncSetUp(store), async (target) => {
				figures = await proveSync(target, sandbox, syncWorkflows(exampleWorkflows(), store), { ...DEFAULT_PROOF, replyMovesTicket: replies === 'moving' }, log);
			});
		} finally {
			await sandbox.stop();
		}
		if (!figures) throw new Error('no figures');
		for (const line of printFigures(`${mode} mode, ${store}, ${what}`, figures)) log(line);
		const problems = [figures.tickets, figures.customers].filter((d) => !isEqual(d));
		if (problems.length) throw new Error(`the copy differs: ${describeDifference('tickets', figures.tickets)}; ${describeDifference('customers', figures.customers)}`);
		if (figures.watermark.saved !== figures.watermark.newest) throw new Error(`the reconcile saved the watermark ${figures.watermark.saved}, not ${figures.watermark.newest}`);
		if (figures.driver.total < 500) throw new Error(`only ${figures.driver.total} changes during the run`);
		if (!figures.forcedRace?.replies) throw new Error('the forced race was not set up: no replies to tickets of the next import page');
		if (store === 'postgres') {
			// The primary key: not even before the reconcile can an id have a second row.
			const second = secondRows(figures.beforeReconcile.tickets) + secondRows(figures.beforeReconcile.customers);
			if (second > 0) throw new Error(`${second} ids had a second row before the reconcile`);
			const chained = figures.chainedImport;
			if (!chained) throw new Error('no figures of the chained import');
			// Beyond the pages: each chain's failed page again and the first page of each replaced run; without the run check every
			// page after the stop is read twice (50 list calls for 26 pages).
			const extra = chained.listCalls - chained.pagesNeeded;
			if (extra > 6) throw new Error(`the import read ${chained.listCalls} list pages for ${chained.pagesNeeded} pages: did both chains started by hand go on?`);
		} else if (secondRows(figures.beforeReconcile.tickets) === 0) {
			throw new Error('no ticket had a second row before the reconcile: the sweep was not shown');
		}
		const { deliveries, dropped, duplicated, reordered } = figures.deliveries;
		// At least 9 %: the seeded draws of 13 % rates give about 10 % (66 repeats of 660 events, 66 of 663).
		if (dropped < deliveries * 0.09 || duplicated < deliveries * 0.09 || reordered === 0) {
			throw new Error(`too little chaos: ${dropped} dropped, ${duplicated} duplicated, ${reordered} reordered of ${deliveries}`);
		}
	});
}

function addIncrementalProof(suite: Suite, mode: Mode, packed: () => PackedPackage, workDir: string, timestampFormat: TimestampFormat): void {
	suite.test(`${mode} mode, timestamps ${timestampFormat}: ${INCREMENTAL_EXAMPLE} copies each ticket once, one created in the watermark's millisecond included; the watermark moves`, async () => {
		const clock = new PinnableClock();
		const sandbox = await startSandbox({ seed: INCREMENTAL_SEEDED_TICKETS, now: clock.now, timestampFormat });
		const workflow = incrementalWorkflow(exampleWorkflows());
		try {
			await withN8n(mode, packed(), sandbox, path.join(workDir, `${mode}-incremental`), { toImport: [workflow], active: [] }, async (target) => {
				await proveIncremental(target, sandbox, clock, workflow, log);
			});
		} finally {
			await sandbox.stop();
		}
	});
}

/** The Postgres credential sync-by-polling-postgres.json refers to, on n8n's own PostgreSQL (trust on loopback). */
function postgresCredential(postgres: PostgresServer | undefined): CredentialImport[] {
	if (!postgres) throw new Error(`${POLLING_POSTGRES_EXAMPLE} runs in queue mode only (PostgreSQL)`);
	return [{ id: 'syncPostgres', name: 'Postgres (the copy)', type: 'postgres', data: { host: postgres.host, port: postgres.port, database: postgres.database, user: postgres.user, password: '', ssl: 'disable', maxConnections: 10, allowUnauthorizedCerts: false, sshTunnel: false } }];
}

function addPollingProof(suite: Suite, mode: Mode, into: 'dataTables' | 'postgres', packed: () => PackedPackage, workDir: string, timestampFormat: TimestampFormat): void {
	const example = into === 'postgres' ? POLLING_POSTGRES_EXAMPLE : POLLING_EXAMPLE;
	const control = into === 'postgres' ? '' : ', where a plain upsert by id keeps the older one';
	suite.test(`${mode} mode, timestamps ${timestampFormat}: ${example} alone keeps the copy equal to the service while the first polls import and 600 changes come (0 missing, 0 extra, 0 stale), also when an older execution finishes last${control}`, async () => {
		const clock = new PinnableClock();
		const sandbox = await startSandbox({ seed: SEEDED_TICKETS, now: clock.now, timestampFormat });
		const workflows = pollingWorkflows(exampleWorkflows(), into);
		const toImport = workflows.control ? [workflows.polling, workflows.control] : [workflows.polling];
		const credentials = into === 'postgres' ? postgresCredential : undefined;
		try {
			await withN8n(mode, packed(), sandbox, path.join(workDir, `${mode}-polling-${into}`), { toImport, active: [workflows.polling.id], credentials }, async (target) => {
				const copy = target.postgres && into === 'postgres' ? postgresStore(target.postgres) : dataTableStore(target.rest);
				const figures = await provePolling(target, sandbox, clock, workflows, copy, log);
				for (const line of printPollingFigures(`${mode} mode, ${example}`, figures)) log(line);
				if (!isEqual(figures.tickets) || !isEqual(figures.customers)) {
					throw new Error(`after one more poll the copy differs: ${describeDifference('tickets', figures.tickets)}; ${describeDifference('customers', figures.customers)}`);
				}
				if (figures.changes < 600) throw new Error(`only ${figures.changes} changes during the run`);
			});
		} finally {
			await sandbox.stop();
		}
	});
}

/** examples/large-account-import.json, published (it calls itself per page), stopped part-way by a failed page and resumed. */
function addLargeImportProof(suite: Suite, mode: Mode, packed: () => PackedPackage, workDir: string, timestampFormat: TimestampFormat): void {
	suite.test(`${mode} mode, timestamps ${timestampFormat}: ${LARGE_IMPORT_EXAMPLE} imports ${LARGE_IMPORT_TICKETS} tickets one page per execution, resumes after a failed page from the saved cursor, and n8n keeps no execution per page`, async () => {
		const sandbox = await startSandbox({ seed: LARGE_IMPORT_TICKETS, timestampFormat });
		const workflow = largeImportWorkflow(exampleWorkflows());
		try {
			await withN8n(mode, packed(), sandbox, path.join(workDir, `${mode}-large-import`), { toImport: [workflow], active: [workflow.id] }, async (target) => {
				await checkLargeImport(target, sandbox, await proveLargeImport(target, sandbox, workflow, log), log);
			});
		} finally {
			await sandbox.stop();
		}
	});
}

type Proof = 'webhooks' | 'webhooks-postgres' | 'incremental' | 'polling' | 'polling-postgres' | 'large-import';
const PROOFS: Proof[] = ['webhooks', 'webhooks-postgres', 'incremental', 'polling', 'polling-postgres', 'large-import'];

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
	proofs: Proof[];
	/** No flags: CI's set, one proof per store (Data Tables in regular mode, PostgreSQL in queue mode). */
	ciSet: boolean;
	timestamps?: TimestampFormat;
}

function requested(argv: string[]): Requested {
	let timestamps: TimestampFormat | undefined;
	const modes: Mode[] = [];
	const replies: Replies[] = [];
	const proofs: Proof[] = [];
	let all = false;
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === '--all') all = true;
		else if (argv[i] === '--mode' && (argv[i + 1] === 'regular' || argv[i + 1] === 'queue')) modes.push(argv[++i] as Mode);
		else if (argv[i] === '--replies' && (argv[i + 1] === 'moving' || argv[i + 1] === 'still')) replies.push(argv[++i] as Replies);
		else if (argv[i] === '--proof' && PROOFS.includes(argv[i + 1] as Proof)) proofs.push(argv[++i] as Proof);
		else if (argv[i] === '--timestamps' && TIMESTAMP_FORMATS.includes(argv[i + 1] as TimestampFormat)) timestamps = argv[++i] as TimestampFormat;
		else throw new Error(`usage: npm run test:sync [-- --all | [--mode regular|queue]... [--replies moving|still]... [--proof ${PROOFS.join('|')}]... [--timestamps ${TIMESTAMP_FORMATS.join('|')}]]`);
	}
	if (argv.length === 0) return { modes: ['regular', 'queue'], replies: ['still'], repliesGiven: true, proofs: ['webhooks', 'webhooks-postgres'], ciSet: true };
	if (all && argv.length > 1) throw new Error('--all runs every proof: give it alone');
	return { modes: modes.length ? modes : ['regular', 'queue'], replies: replies.length ? replies : ['moving', 'still'], repliesGiven: replies.length > 0, proofs: proofs.length ? proofs : PROOFS, ciSet: false, timestamps };
}

async function main(): Promise<void> {
	const started = Date.now();
	const { modes, replies, repliesGiven, proofs, ciSet, timestamps } = requested(process.argv.slice(2));
	const workDir = mkdtempSync(path.join(tmpdir(), 'n8n-sync-'));
	let packed: PackedPackage | undefined;
	const suite = new Suite(`n8n ${PRIMARY_N8N_VERSION}: a copy in Data Tables kept equal to the service (examples/sync-*.json, incremental-import.json)`);
	const getPacked = (): PackedPackage => {
		if (!packed) throw new Error('not packed');
		return packed;
	};
	if (ciSet) {
		addProof(suite, 'regular', 'still', getPacked, workDir, defaultTimestamps('regular', 'webhooks'));
		addProof(suite, 'queue', 'still', getPacked, workDir, defaultTimestamps('queue', 'webhooks-postgres'), 'postgres');
	}
	for (const mode of ciSet ? [] : modes) {
		const format = (proof: Proof): TimestampFormat => timestamps ?? defaultTimestamps(mode, proof);
		if (proofs.includes('webhooks')) for (const setting of replies) addProof(suite, mode, setting, getPacked, workDir, format('webhooks'));
		if (proofs.includes('incremental')) addIncrementalProof(suite, mode, getPacked, workDir, format('incremental'));
		if (proofs.includes('polling')) addPollingProof(suite, mode, 'dataTables', getPacked, workDir, format('polling'));
		// PostgreSQL is there in queue mode (n8n's own database): the copy goes into it.
		if (proofs.includes('polling-postgres') && mode === 'queue') addPollingProof(suite, mode, 'postgres', getPacked, workDir, format('polling-postgres'));
		// Its writes do not depend on the reply behaviour (no second row can arise): by default once, replies still.
		const postgresReplies: Replies[] = repliesGiven ? replies : ['still'];
		if (proofs.includes('webhooks-postgres') && mode === 'queue') for (const setting of postgresReplies) addProof(suite, mode, setting, getPacked, workDir, format('webhooks-postgres'), 'postgres');
		// Regular mode only: the chain of executions is the same on a worker (bench/largeImport.tsx runs it in queue mode).
		if (proofs.includes('large-import') && mode === 'regular') addLargeImportProof(suite, mode, getPacked, workDir, format('large-import'));
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
	if (totals.failed === 0 && !process.env.E2E_KEEP_USER_FOLDER) rmSync(workDir, { recursive: true, force: true });
	else console.log(`\nlogs and user folders kept in ${workDir}`);
	reportTotals(totals, `sync proof (${modes.join(', ')}; ${proofs.join(', ')}; replies ${replies.join(', ')}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

runMain(main);
