// The sync proof, every set-up and edition: the initial import while the service changes and deliveries are dropped,
// repeated and reordered; then one reconcile, and the copy must equal the service.
import type { Sandbox, WebhookChaosOptions } from '../../../sandbox';
import { findWorkflow, triggerWebhookPath, type WorkflowFile } from '../fixtures';
import type { N8nRestClient } from '../n8n/restClient';
import type { PostgresServer } from '../queue/services/postgresServer';
import { executionRun, isFinished, waitForExecutions } from '../executions';
import { ensureN8n, PRIMARY_N8N_VERSION } from '../n8n/n8nInstall';
import { waitUntil } from '../../harness/wait';
import {
	compareWithService,
	copyEqual,
	type CopyDifference,
	describeCopy,
	putHostileText,
	watermarkOf,
} from './compareCopy';
import {
	type CopyStore,
	dataTableStore,
	insertRow,
	LIST_PATH,
	postgresStore,
	type Row,
	TICKET_TABLE,
	WATERMARK_KEY,
} from './syncTables';
import { runChainedImport } from './chainedImport';
import { forceImportRace, OLD_FOR_MS } from './forcedRace';

/** Where the copy is kept: n8n's Data Tables, or PostgreSQL (the `-postgres` examples). */
export type SyncStore = 'dataTables' | 'postgres';

/** The initial import, the webhooks and the reconcile of each edition. */
const SYNC_EXAMPLES = {
	dataTables: [
		'examples/sync-initial-import.json',
		'examples/sync-webhooks.json',
		'examples/sync-reconcile.json',
	],
	postgres: [
		'examples/large-account-import-postgres.json',
		'examples/sync-webhooks-postgres.json',
		'examples/sync-reconcile-postgres.json',
	],
};

export type SyncWorkflows = ReturnType<typeof syncWorkflows>;

/** The proof's 20-odd ticket pages at 2 per execution (10 as shipped): a replaced run that read on past its next execution would show. */
const PROOF_PAGES_PER_RUN = 2;

export function syncWorkflows(examples: WorkflowFile[], store: SyncStore = 'dataTables') {
	const [shipped, webhooks, reconcile] = SYNC_EXAMPLES[store].map((file) =>
		findWorkflow(examples, file),
	);
	const nodes = shipped.json.nodes.map((n) =>
		n.parameters.pagesPerRun === undefined
			? n
			: { ...n, parameters: { ...n.parameters, pagesPerRun: PROOF_PAGES_PER_RUN } },
	);
	const initialImport = { ...shipped, json: { ...shipped.json, nodes } };
	return { store, initialImport, webhooks, reconcile };
}

function postgresOf(target: SyncTarget): PostgresServer {
	if (!target.postgres)
		throw new Error('the PostgreSQL edition needs the PostgreSQL of queue mode');
	return target.postgres;
}

/** The copy the workflows keep, read where they keep it. */
function copyStore(target: SyncTarget, store: SyncStore): CopyStore {
	return store === 'dataTables' ? dataTableStore(target.rest) : postgresStore(postgresOf(target));
}

/** Where the proof talks to n8n: the editor's REST API (main) and the production webhooks. */
export interface SyncTarget {
	rest: N8nRestClient;
	webhookBaseUrl: string;
	/** The PostgreSQL n8n runs on, in queue mode. */
	postgres?: PostgresServer;
}

/** The change driver of every run: 600 changes at 8/s, reply-heavy (half are replies, most of them to old tickets). */
const DRIVER = {
	ratePerSecond: 8,
	count: 600,
	seed: 12,
	mix: {
		'reply.created': 50,
		'ticket.updated': 20,
		'ticket.created': 10,
		'customer.updated': 10,
		'customer.created': 10,
	},
};
/** Changes made before the import starts (the driver is already running then). */
const CHANGES_BEFORE_IMPORT = 40;
// Lost, repeated, late and shuffled deliveries, several at once, failed ones retried. Rates a
// little above 10 % so that the drawn shares stay near 10 % or more (run.tsx checks 9 %).
const CHAOS: WebhookChaosOptions = {
	dropRate: 0.13,
	duplicateRate: 0.13,
	reorderWindow: 5,
	delayMs: [0, 200],
	concurrency: 4,
	maxAttempts: 5,
	backoffMs: 500,
	seed: 7,
};

export type SyncFigures = Awaited<ReturnType<typeof proveSync>>;

const RECORD_PATH = /\/(tickets|customers)\/[^/]+$/;
const RUN_TIMEOUT_MS = 15 * 60_000;

/** Where and why an execution failed, from its run data. */
export async function executionError(rest: N8nRestClient, id: string): Promise<string> {
	const install = await ensureN8n(PRIMARY_N8N_VERSION, () => undefined);
	const { error, lastNodeExecuted } = (await executionRun(rest, install, id)).data.resultData;
	return `${lastNodeExecuted ?? '?'}: ${error?.message ?? '?'} ${error?.description ?? ''}`;
}

/** Starts a workflow from a trigger the way the editor does (pinData: see runManually) and waits until it finished. */
export async function runToEnd(
	rest: N8nRestClient,
	workflow: WorkflowFile,
	trigger: string,
	pinData?: Record<string, Array<{ json: unknown }>>,
): Promise<number> {
	const started = Date.now();
	const id = await rest.runManually(workflow.id, trigger, pinData);
	const execution = await waitUntil(
		`${workflow.file} execution ${id} to finish`,
		async () => (await rest.listExecutions(workflow.id)).find((e) => e.id === id && isFinished(e)),
		RUN_TIMEOUT_MS,
		{ intervalMs: 1000 },
	);
	if (execution.status !== 'success')
		throw new Error(
			`${workflow.file} execution ${id} ended ${execution.status}: ${await executionError(rest, id)}`,
		);
	return (Date.now() - started) / 1000;
}

export async function proveSync(
	target: SyncTarget,
	sandbox: Sandbox,
	workflows: SyncWorkflows,
	replyMovesTicket: boolean,
	log: (line: string) => void,
) {
	const { rest } = target;
	const path = triggerWebhookPath(workflows.webhooks);
	if (!path)
		throw new Error(`${workflows.webhooks.file} has no Support Ticket Trigger with a webhookId`);
	sandbox.setWebhookChaos(CHAOS);
	sandbox.resetWebhookCounters();
	sandbox.store.replyMovesTicket = replyMovesTicket;
	const hook = sandbox.addWebhook({ url: target.webhookBaseUrl + path });
	const ticketsAtStart = sandbox.store.ticketCount;
	sandbox.clearLog();
	const startedAtMs = Date.now();
	const driver = sandbox.startDriver(DRIVER);
	let race: ReturnType<typeof forceImportRace> | undefined;
	let ended = false;
	try {
		await waitUntil(
			'the first changes',
			() => (driver.summary().total >= CHANGES_BEFORE_IMPORT ? true : undefined),
			60_000,
			{ intervalMs: 100 },
		);
		const repliesBeforeImport = sandbox.store.replyCount;
		race = forceImportRace(sandbox, startedAtMs);
		const hostileText = [putHostileText(sandbox, [5, 950], 3)];
		const duringImport = waitUntil(
			'the import to read two pages',
			() => (ended || sandbox.countCalls({ pathname: LIST_PATH }) >= 2 ? true : undefined),
			RUN_TIMEOUT_MS,
			{ intervalMs: 50 },
		).then(
			() => (ended ? undefined : hostileText.push(putHostileText(sandbox, [1500], 7))),
			() => undefined,
		);
		const chainedImport =
			workflows.store === 'postgres'
				? await runChainedImport(rest, postgresOf(target), sandbox, workflows.initialImport, log)
				: undefined;
		const importSeconds =
			chainedImport?.seconds ?? (await runToEnd(rest, workflows.initialImport, 'Start Import'));
		await duringImport;
		const forcedRace = race.stop();
		const repliesDuringImport = sandbox.store.replyCount - repliesBeforeImport;
		const importPages = sandbox.countCalls({ pathname: LIST_PATH });
		log(
			`initial import done in ${importSeconds.toFixed(1)} s, ${importPages} pages read; driver at ${driver.summary().total} changes; ${repliesDuringImport} replies during the import; forced race ${JSON.stringify(forcedRace)}`,
		);
		const summary = await driver.finished;
		log(
			`driver done: ${summary.total} changes ${JSON.stringify(summary.byKind)}, ${summary.errors} refused`,
		);
		await sandbox.webhooksIdle();
		const executions = await waitForExecutions(
			rest,
			workflows.webhooks.id,
			'the webhook executions to finish',
			(list) => list.every(isFinished),
			RUN_TIMEOUT_MS,
			1000,
		);
		const total = (await countExecutions(rest, workflows.webhooks.id)) ?? executions.length;
		const failed = executions.filter((e) => e.status !== 'success').length;
		const copy = copyStore(target, workflows.store);
		let beforeReconcile = await compareWithService(copy, sandbox);
		// Whether the forced race ends in a second row depends on scheduling; the sweep must always be shown.
		const plantedSecondRow =
			workflows.store === 'dataTables' && secondRows(beforeReconcile.tickets) === 0
				? await plantSecondRow(rest, sandbox, startedAtMs)
				: undefined;
		if (plantedSecondRow) beforeReconcile = await compareWithService(copy, sandbox);
		log(`before the reconcile: ${describeCopy(beforeReconcile)}`);
		const recordReads = sandbox.countCalls({ pathname: RECORD_PATH });
		const callsBeforeReconcile = sandbox.countCalls();
		const reconcileSeconds = await runToEnd(rest, workflows.reconcile, 'Start Reconcile');
		const reconcileCalls = sandbox.countCalls() - callsBeforeReconcile;
		let after = await compareWithService(copy, sandbox);
		const lastChangeToEqualSeconds =
			(Date.now() - Date.parse(summary.lastChangeWallAt ?? '')) / 1000;
		// The Data Table edition's order is shown by its second rows and their merge; here the
		// statement alone decides, so an older version is made to arrive last.
		const olderVersionLast =
			workflows.store === 'postgres' && copyEqual(after)
				? await applyOlderVersionsLast(rest, sandbox, workflows.webhooks)
				: undefined;
		if (olderVersionLast) after = await compareWithService(copy, sandbox);
		const watermark = {
			saved: String(await copy.state(WATERMARK_KEY)),
			newest: watermarkOf(
				sandbox.store.listTickets({ sortBy: 'updated_at' })[0]?.updated_at ?? '',
				sandbox.timestampFormat,
			),
		};
		return {
			ticketsAtStart,
			driver: summary,
			deliveries: sandbox.webhookCounters(),
			webhookExecutions: { total, failed },
			importSeconds,
			reconcileSeconds,
			lastChangeToEqualSeconds,
			watermark,
			calls: { importPages, recordReads, reconcile: reconcileCalls },
			...after,
			beforeReconcile,
			replyMovesTicket,
			forcedRace,
			repliesDuringImport,
			chainedImport,
			plantedSecondRow,
			olderVersionLast,
			hostileText,
		};
	} finally {
		ended = true;
		race?.stop();
		await driver.stop();
		sandbox.store.replyMovesTicket = true;
		sandbox.removeWebhook(hook);
		sandbox.setWebhookChaos({});
	}
}

/** What the race leaves: a second row for an old ticket the reconcile does not read again, holding an older version. */
async function plantSecondRow(
	rest: N8nRestClient,
	sandbox: Sandbox,
	startedAtMs: number,
): Promise<string> {
	const rows = await dataTableStore(rest).rows('tickets');
	const old = sandbox.store
		.listTickets()
		.find((t) => Date.parse(t.updated_at) < startedAtMs - OLD_FOR_MS);
	const row = old && rows.find((r) => r.ticket_id === old.id);
	if (!row) throw new Error('no old ticket in the copy to give a second row');
	const updatedMs = Number(row.updated_ms) - 3_600_000;
	const second: Row = {
		...row,
		subject: 'An older version',
		updated_at: new Date(updatedMs).toISOString(),
		updated_ms: updatedMs,
	};
	for (const key of ['id', 'createdAt', 'updatedAt']) delete second[key];
	await insertRow(rest, TICKET_TABLE, second);
	return String(row.ticket_id);
}

/** Sync 2 by hand with older versions pinned on its reads, as a delivery that read before a change and finished after it. */
async function applyOlderVersionsLast(
	rest: N8nRestClient,
	sandbox: Sandbox,
	webhooks: WorkflowFile,
): Promise<string> {
	const ticket = sandbox.store.listTickets()[0];
	const customer = sandbox.store.listCustomers()[0];
	const older = <T extends { updated_at: string }>(record: T, changes: Partial<T>): T => ({
		...record,
		...changes,
		updated_at: new Date(Date.parse(record.updated_at) - 3_600_000).toISOString(),
	});
	for (const [event, read, version] of [
		[
			'ticket.updated',
			'Get Ticket',
			older(ticket, { subject: 'An older version', status: 'closed' }),
		],
		['customer.updated', 'Get Customer', older(customer, { name: 'An older version' })],
	] as const)
		await runToEnd(rest, webhooks, 'On Any Change', {
			'On Any Change': [{ json: { event, data: { id: version.id } } }],
			[read]: [{ json: version }],
		});
	return `ticket ${ticket.id}'s and customer ${customer.id}'s versions of an hour earlier written last by ${webhooks.file}`;
}

/** The total count of a workflow's executions (the list itself is capped at 100 rows). */
async function countExecutions(
	rest: N8nRestClient,
	workflowId: string,
): Promise<number | undefined> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const response = await rest.request<{ data?: { count?: number } }>(
		'GET',
		`/executions?filter=${filter}&limit=1`,
	);
	return response.body.data?.count;
}

/** The figures' lines, those of what did not happen (no chained import, no planted row) left out. */
export function printFigures(label: string, figures: SyncFigures): string[] {
	const d = figures.deliveries;
	const race = figures.forcedRace;
	const chained = figures.chainedImport;
	return [
		`${label}: ${figures.ticketsAtStart} tickets at the start, ${figures.driver.total} changes during the run ${JSON.stringify(figures.driver.byKind)}; replies ${figures.replyMovesTicket ? 'move' : 'do not move'} the ticket's updated_at`,
		`  hostile text: ${figures.hostileText.join('; ')}`,
		`  forced race: ${race.replies} replies to old tickets of the next page on ${race.pages} import pages, ${race.pagesHeld} import pages held until a webhook read of one of their tickets (${race.pagesTimedOut} timed out), ${race.readsHeld} webhook reads held until their page was sent (${race.readsTimedOut} timed out), ${race.readsLate} came after it; ${figures.repliesDuringImport} replies during the import; tickets with a second row before the reconcile: ${secondRows(figures.beforeReconcile.tickets)}`,
		`  deliveries: ${d.deliveries} events, ${d.dropped} dropped (${pct(d.dropped, d.deliveries)}), ${d.duplicated} duplicated (${pct(d.duplicated, d.deliveries)}), ${d.reordered} reordered, ${d.retried} retried, ${d.failed} failed; ${figures.webhookExecutions.total} webhook executions (${figures.webhookExecutions.failed} not successful among the last 100)`,
		chained &&
			`  chained import: ${chained.listCalls} list calls for ${chained.pagesNeeded} pages (⌈tickets/100⌉ + ⌈customers/100⌉ at the end, ${chained.pagesPerRun} per execution); pages saved out of order gave the positions ${chained.savedOutOfOrder.join(' → ')}; stopped at call ${chained.stoppedAtCall} (${chained.failure}), position ${chained.stoppedAt.slice(0, 20)}…, resumed by two starts by hand at once, to done; executions kept ${chained.executionsKept.total} ${JSON.stringify(chained.executionsKept.byStatus)}`,
		`  calls: initial import ${figures.calls.importPages} list pages, ${figures.calls.recordReads} single reads after deliveries, reconcile ${figures.calls.reconcile}; import ${figures.importSeconds.toFixed(1)} s, reconcile ${figures.reconcileSeconds.toFixed(1)} s`,
		`  before the reconcile: ${describeCopy(figures.beforeReconcile)}`,
		figures.plantedSecondRow &&
			`  the race left no second row: one put in for ${figures.plantedSecondRow} (an hour older) before the reconcile`,
		figures.olderVersionLast && `  then an older version last: ${figures.olderVersionLast}`,
		`  after one reconcile${figures.olderVersionLast ? ' and the older versions' : ''}: ${describeCopy(figures)}`,
		`  last change → copy equal: ${figures.lastChangeToEqualSeconds.toFixed(1)} s; reconcile watermark saved ${figures.watermark.saved} (service's newest updated_at ${figures.watermark.newest})`,
	].filter((line) => typeof line === 'string');
}

/** Ids with more than one row in the copy. */
export function secondRows(difference: CopyDifference): number {
	return difference.extra.filter((e) => e.endsWith('(second row)')).length;
}

function pct(part: number, whole: number): string {
	return whole ? `${((100 * part) / whole).toFixed(1)} %` : '-';
}
