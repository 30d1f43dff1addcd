// large-account-import-postgres.json in real n8n, two chains at once, stopped by a page the node does not retry and run
// by hand again twice at once: the chains go on from the saved positions, replaced runs stop at their next page.
import type { Sandbox } from '../../../sandbox';
import type { WorkflowFile } from '../fixtures';
import type { N8nRestClient } from '../n8n/restClient';
import type { PostgresServer } from '../queue/services/postgresServer';
import { isFinished } from '../executions';
import { waitUntil } from '../../harness/wait';
import { IMPORT_POSITION_KEYS, LIST_PATH, postgresState } from './syncTables';

const TRIGGER = 'Start Import';
const WAIT_MS = 15 * 60_000;
const READ = 'Create Tables, Read Position';
const WRITE = 'Write Ticket Page, Save Position';
const WRITE_CUSTOMERS = 'Write Customer Page, Save Position';

export type ChainedImportFigures = Awaited<ReturnType<typeof runChainedImport>>;

/** The saved positions of both chains, e.g. `tickets:<cursor> done`. */
async function positions(postgres: PostgresServer): Promise<string> {
	const saved = await Promise.all(IMPORT_POSITION_KEYS.map((key) => postgresState(postgres, key)));
	return saved.map((value) => value ?? '(none)').join(' ');
}
const DONE = 'done done';

function query(workflow: WorkflowFile, name: string): string {
	const node = workflow.json.nodes.find((n) => n.name === name);
	if (!node) throw new Error(`${workflow.file} has no node ${name}`);
	return String(node.parameters.query);
}

/** Starts by hand (Create Tables, Read Position) waiting for a lock. */
async function startsWaiting(postgres: PostgresServer): Promise<number> {
	const [row] = await postgres.query<{ waiting: number }>(
		"SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%CREATE TABLE IF NOT EXISTS st_import_pages%'",
	);
	return row.waiting;
}

/** The Get Page nodes' Pages per Run (pages one execution reads), and whether tickets are read from both ends (that many from each). */
function pageSettings(workflow: WorkflowFile) {
	const node = workflow.json.nodes.find((n) => n.name === 'Get Page of Tickets');
	const options = node?.parameters.options as { readFromBothEnds?: boolean } | undefined;
	return {
		pagesPerRun: Number(node?.parameters.pagesPerRun ?? 1),
		ticketsFromBothEnds: options?.readFromBothEnds === true,
	};
}

/** A text literal, as the Postgres node binds a string parameter. */
const literal = (value: string): string => `'${value.replace(/'/g, "''")}'`;

// The import's own statements in a rolled-back transaction: pages saved out of order (a chain starts the next page before
// writing its own) move each chain's position only past pages all written, and a replaced run's page moves nothing.
async function savePagesOutOfOrder(
	postgres: PostgresServer,
	workflow: WorkflowFile,
): Promise<string[]> {
	const creates = query(workflow, READ)
		.split('\n')
		.filter((line) => line.startsWith('CREATE TABLE'));
	// One row per page: json_populate_recordset makes the columns it does not name null.
	const updated = { updated_at: '2026-01-01T00:00:00.000Z', updated_ms: Date.UTC(2026, 0, 1) };
	const bind = (statements: string, values: string[]): string =>
		statements.replace(/\$(\d)/g, (_, n: string) => literal(values[Number(n) - 1]));
	const write = (node: string, row: object, from: string, to: string, run: string): string =>
		bind(query(workflow, node), [JSON.stringify([{ ...row, ...updated }]), from, to, run, '0']);
	const save = (from: string, to: string, id: string, run = 'r1'): string =>
		write(WRITE, { ticket_id: id, status: 'open' }, from, to, run);
	const saveCustomers = (from: string, to: string, run: string): string =>
		write(WRITE_CUSTOMERS, { customer_id: `cus_${to}` }, from, to, run);
	const start = (run: string): string => bind(query(workflow, READ), [run]);
	return postgres.script(
		[
			'BEGIN;',
			...creates,
			"INSERT INTO st_import_state (key, value) VALUES ('tickets_position', 'tickets:p1'), ('customers_position', 'customers:'), ('import_run', 'r1') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;",
			save('tickets:p2', 'tickets:p3', 'tkt_order_2'),
			// The other chain goes on by itself while a ticket page is missing.
			saveCustomers('customers:', 'customers:q2', 'r1'),
			save('tickets:p1', 'tickets:p2', 'tkt_order_1'),
			'SELECT count(*) FROM st_import_pages;',
			// A run replaced by a later start by hand: its page is written, but not noted.
			save('tickets:p3', 'done', 'tkt_order_3', 'r0'),
			'SELECT count(*) FROM st_import_pages;',
			save('tickets:p3', 'done', 'tkt_order_3'),
			start('r2'),
			saveCustomers('customers:q2', 'done', 'r2'),
			start('r3'),
			'SELECT count(*) FROM st_import_pages;',
			'ROLLBACK;',
		].join('\n'),
	);
}

/** Runs the chained import by hand, stops it once part-way, and resumes it by two starts at once. */
export async function runChainedImport(
	rest: N8nRestClient,
	postgres: PostgresServer,
	sandbox: Sandbox,
	workflow: WorkflowFile,
	log: (line: string) => void,
) {
	const savedOutOfOrder = await savePagesOutOfOrder(postgres, workflow);
	const expected = [
		'tickets:p1',
		'customers:q2',
		'tickets:p3',
		'0',
		'tickets:p3',
		'0',
		'done',
		'customers|q2|customers:q2|r2|0',
		'done',
		'tickets||tickets:|r3|0',
		'customers||customers:|r3|0',
		'0',
	];
	if (JSON.stringify(savedOutOfOrder) !== JSON.stringify(expected))
		throw new Error(
			`pages saved out of order gave the positions ${JSON.stringify(savedOutOfOrder)}, not ${JSON.stringify(expected)}`,
		);
	const settings = pageSettings(workflow);
	// Past the ticket chain's first execution even if the customer chain read all its pages first.
	const stopAfter = settings.pagesPerRun + Math.ceil(sandbox.store.customerCount / 100) + 1;
	const started = Date.now();
	const listCalls = () => sandbox.countCalls({ method: 'GET', pathname: LIST_PATH });
	const callsBefore = listCalls();
	const executionsBefore = new Set((await rest.listExecutions(workflow.id)).map((e) => e.id));
	const newExecutions = async () =>
		(await rest.listExecutions(workflow.id)).filter((e) => !executionsBefore.has(e.id));

	await rest.runManually(workflow.id, TRIGGER);
	// After stopAfter pages, list answers say "more" without a cursor: the page each chain reads next fails.
	await waitUntil(
		`${stopAfter} import pages`,
		() => (listCalls() - callsBefore >= stopAfter ? true : undefined),
		WAIT_MS,
		{ intervalMs: 50 },
	);
	sandbox.setResponseShape({ hasMoreWithoutCursor: 'null' });
	const failed = await waitUntil(
		'both chains to stop on a faulty page',
		async () => {
			const list = await newExecutions();
			const errors = list.filter((e) => isFinished(e) && e.status !== 'success');
			if (!errors.length && (await positions(postgres)) === DONE)
				throw new Error('the import finished before the faulty page: it never stopped');
			return errors.length && list.every(isFinished) ? errors : undefined;
		},
		WAIT_MS,
		{ intervalMs: 500 },
	).finally(() => sandbox.setResponseShape({}));
	const stoppedAtCall = listCalls() - callsBefore;
	const stoppedAt = await positions(postgres);
	// The ticket chain is far longer than stopAfter pages: it stops in the middle.
	if (!/^tickets:\S/.test(stoppedAt))
		throw new Error(
			`after the stop the saved positions are ${stoppedAt}, not a ticket page in the middle`,
		);
	const failure = failed.map((e) => `${e.status} execution ${e.id}`).join(', ');
	const failedIds = new Set(failed.map((e) => e.id));
	log(
		`import stopped at list call ${stoppedAtCall} (${failure}); saved positions ${stoppedAt.slice(0, 60)}…; running it again by hand`,
	);

	// Run by hand twice at once: both starts wait on a lock of the state table, then go on together. The
	// second to take the run stops the first one's chains at their next execution (without that: every page read twice).
	const state = await postgres.lockTable('st_import_state');
	try {
		for (const start of [1, 2]) {
			await rest.runManually(workflow.id, TRIGGER);
			await waitUntil(
				`start by hand ${start} to wait for the state table`,
				async () => ((await startsWaiting(postgres)) >= start ? true : undefined),
				WAIT_MS,
				{ intervalMs: 100 },
			);
		}
	} finally {
		await state.release();
	}
	log('import resumed by hand twice at once');
	await waitUntil(
		'the resumed import to finish (both positions done)',
		async () => {
			const list = await newExecutions();
			const errors = list.filter(
				(e) => isFinished(e) && e.status !== 'success' && !failedIds.has(e.id),
			);
			if (errors.length)
				throw new Error(
					`the resumed import failed: executions ${errors.map((e) => `${e.id} ${e.status}`).join(', ')}`,
				);
			return (await positions(postgres)) === DONE && list.every(isFinished) ? true : undefined;
		},
		WAIT_MS,
		{ intervalMs: 500, seen: () => 'positions not yet done' },
	);
	const kept = await newExecutions();
	const byStatus: Record<string, number> = {};
	for (const e of kept) byStatus[e.status] = (byStatus[e.status] ?? 0) + 1;
	const pagesNeeded =
		Math.ceil(sandbox.store.ticketCount / 100) + Math.ceil(sandbox.store.customerCount / 100);
	return {
		seconds: (Date.now() - started) / 1000,
		listCalls: listCalls() - callsBefore,
		pagesNeeded,
		...settings,
		stoppedAtCall,
		stoppedAt,
		failure,
		savedOutOfOrder,
		executionsKept: { total: kept.length, byStatus },
	};
}
