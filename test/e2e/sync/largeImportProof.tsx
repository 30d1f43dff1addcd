// large-account-import.json in real n8n, published: stopped part-way by a failed page, resumed by hand from st_state;
// the tables equal the service, n8n keeps no execution per page, and a run after `done` writes nothing twice.
import type { Sandbox } from '../../../sandbox';
import { isFinished, waitForExecutions } from '../executions';
import type { WorkflowFile } from '../fixtures';
import type { N8nRestClient } from '../n8n/restClient';
import { waitUntil } from '../../harness/wait';
import { compareWithService, describeCopy, mustEqual } from './compareCopy';
import { executionError, type SyncTarget } from './syncProof';
import {
	CUSTOMER_LIST,
	dataTableStore,
	LIST_PATH,
	readTable,
	STATE_TABLE,
	TICKET_LIST,
	TICKET_TABLE,
} from './syncTables';

export const LARGE_IMPORT_EXAMPLE = 'examples/large-account-import.json';
export const LARGE_IMPORT_TICKETS = 1500;
const TRIGGER = 'Start Import';
const POSITION_KEY = 'large_import_position';
const PAGE = 100;
/** The ticket list call answered 500 (counted from the first): pages 1–5 are written before it. */
const FAULT_AT = 6;
const RUN_TIMEOUT_MS = 5 * 60_000;

async function savedCursor(rest: N8nRestClient): Promise<string | undefined> {
	const rows = await readTable(rest, STATE_TABLE).catch(() => []);
	const row = rows.find((r) => r.key === POSITION_KEY);
	return row === undefined ? undefined : String(row.value ?? '');
}

/** Run 1 stopped by the fault, run 2 resumed to `done`, run 3 after `done`; then the copy, the calls and the executions kept. */
export async function proveLargeImport(
	{ rest }: SyncTarget,
	sandbox: Sandbox,
	workflow: WorkflowFile,
	log: (line: string) => void,
): Promise<void> {
	const executionsOf = () => rest.listExecutions(workflow.id);
	const chainEnded = (what: string) =>
		waitForExecutions(rest, workflow.id, what, (list) => list.every(isFinished), RUN_TIMEOUT_MS);
	let ticketLists = 0;
	let faulted = false;
	// A service error the node does not retry (it retries 429, 502, 503, 504): the page's execution fails.
	sandbox.setAnswerGate((entry, answer) => {
		if (faulted || entry.method !== 'GET' || !TICKET_LIST.test(entry.pathname)) return undefined;
		if (++ticketLists === FAULT_AT) {
			faulted = true;
			answer.status = 500;
			answer.body = {
				error: { code: 'internal_error', message: 'The list failed once (injected by the proof)' },
			};
		}
		return undefined;
	});
	sandbox.clearLog();
	let started = Date.now();
	try {
		await rest.runManually(workflow.id, TRIGGER);
		const failed = await waitUntil(
			'the import to stop at the failed page',
			async () => (await executionsOf()).find((e) => e.status === 'error'),
			RUN_TIMEOUT_MS,
			{ intervalMs: 500 },
		);
		// The failed execution is the last of the chain: nothing else may still run.
		await chainEnded('the chain to stop');
		const firstRunSeconds = (Date.now() - started) / 1000;
		const error = await executionError(rest, failed.id);
		const cursorAtStop = (await savedCursor(rest)) ?? '';
		const rowsAtStop = (await readTable(rest, TICKET_TABLE)).length;
		log(
			`run 1 stopped after ${firstRunSeconds.toFixed(1)} s: ${error.trim()}; ${rowsAtStop} ticket rows, cursor ${cursorAtStop.slice(0, 30)}…`,
		);
		if (!faulted) throw new Error('the fault was not injected');
		if (rowsAtStop !== (FAULT_AT - 1) * PAGE)
			throw new Error(
				`after the failed page the copy has ${rowsAtStop} ticket rows, expected ${(FAULT_AT - 1) * PAGE}`,
			);
		if (!cursorAtStop.startsWith('tickets:') || cursorAtStop === 'tickets:')
			throw new Error(
				`the saved cursor is ${JSON.stringify(cursorAtStop)}, expected the cursor of page ${FAULT_AT}`,
			);

		started = Date.now();
		await rest.runManually(workflow.id, TRIGGER);
		// The chain ends after the last customer page, which saves the position `done`.
		await waitUntil(
			'the resumed import to finish (position done)',
			async () => ((await savedCursor(rest)) === 'done' ? true : undefined),
			RUN_TIMEOUT_MS,
			{ intervalMs: 500 },
		);
		await chainEnded('the last execution to end');
		const resumeSeconds = (Date.now() - started) / 1000;
		const calls = {
			tickets: sandbox.countCalls({ method: 'GET', pathname: TICKET_LIST }),
			customers: sandbox.countCalls({ method: 'GET', pathname: CUSTOMER_LIST }),
		};
		// Once done, a run by hand starts over: every page read again, nothing written twice.
		await rest.runManually(workflow.id, TRIGGER);
		const allPages =
			Math.ceil(sandbox.store.ticketCount / PAGE) + Math.ceil(sandbox.store.customerCount / PAGE);
		const again = () =>
			sandbox.countCalls({ method: 'GET', pathname: LIST_PATH }) - calls.tickets - calls.customers;
		await waitUntil(
			'the run after done to read every page again',
			async () => (again() >= allPages && (await savedCursor(rest)) === 'done' ? true : undefined),
			RUN_TIMEOUT_MS,
			{ intervalMs: 500, seen: () => again() },
		);
		await chainEnded('the last execution to end');
		log(`run 3 (after done): started over, ${again()} list calls`);
		const kept = (await executionsOf()).map((e) => `${e.mode}/${e.status}`);
		const copy = await compareWithService(dataTableStore(rest), sandbox);
		log(`after the resumed run and a run after done: ${describeCopy(copy)}`);
		log(
			`resumed run: ${resumeSeconds.toFixed(1)} s; list calls ${calls.tickets} for ${sandbox.store.ticketCount} tickets + ${calls.customers} for ${sandbox.store.customerCount} customers (${allPages} pages + the failed one); ` +
				`n8n lists ${kept.length} executions: ${kept.join(', ')}`,
		);
		mustEqual('the copy differs', copy);
		if (!error.includes('500'))
			throw new Error(`the failed execution does not show the service's 500: ${error}`);
		// Every page once, and the failed page once more after the resume.
		const expectedCalls = [
			['ticket', calls.tickets, Math.ceil(sandbox.store.ticketCount / PAGE) + 1],
			['customer', calls.customers, Math.ceil(sandbox.store.customerCount / PAGE)],
		] as const;
		for (const [what, made, expected] of expectedCalls)
			if (made !== expected) throw new Error(`${made} ${what} list calls, expected ${expected}`);
		// Three manual runs and the failed page; the successful page executions are not kept.
		if (kept.sort().join() !== 'integrated/error,manual/success,manual/success,manual/success') {
			throw new Error(
				`n8n kept ${kept.length} executions (${kept.join(', ')}) for ${allPages} pages, expected the 3 manual runs and the failed page`,
			);
		}
	} finally {
		sandbox.setAnswerGate(undefined);
	}
}
