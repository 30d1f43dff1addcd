// sync-by-polling(-postgres).json active: the copy equals the service after 600 changes and a change feed's hard cases,
// and an older execution finishing last leaves it as it is, while a plain upsert (the control) is overwritten.
import {
	type Customer,
	formatTimestamp,
	type RequestLogEntry,
	type Sandbox,
	type Ticket,
} from '../../../sandbox';
import { findWorkflow, type WorkflowFile } from '../fixtures';
import type { ExecutionSummary, N8nRestClient } from '../n8n/restClient';
import { isFinished } from '../executions';
import type { PinnableClock } from '../pinnableClock';
import { waitUntil } from '../../harness/wait';
import {
	compareWithService,
	copyEqual,
	type CopyDifferences,
	describeCopy,
	mustEqual,
	putHostileText,
} from './compareCopy';
import { executionError, runToEnd, type SyncTarget } from './syncProof';
import { type CopyStore, CUSTOMER_LIST, readTable, TICKET_LIST } from './syncTables';

export const POLLING_EXAMPLE = 'examples/sync-by-polling.json';
export const POLLING_POSTGRES_EXAMPLE = 'examples/sync-by-polling-postgres.json';
const TICKET_TRIGGER = 'On Ticket Change';
const CUSTOMER_TRIGGER = 'On Customer Change';
/** The control: the same trigger and row, upserted by ticket_id alone, into a table of its own. */
const CONTROL_TABLE = 'st_tickets_plain_upsert';
const WAIT_MS = 12 * 60_000;

export interface PollingWorkflows {
	polling: WorkflowFile;
	/** The Data Table edition's control (plainUpsertControl). */
	control?: WorkflowFile;
}

export function pollingWorkflows(
	examples: WorkflowFile[],
	store: 'dataTables' | 'postgres',
): PollingWorkflows {
	if (store === 'postgres') return { polling: findWorkflow(examples, POLLING_POSTGRES_EXAMPLE) };
	const polling = findWorkflow(examples, POLLING_EXAMPLE);
	return { polling, control: plainUpsertControl(polling) };
}

/** The ticket lane with the order-safe steps taken out: a plain upsert by ticket_id. */
function plainUpsertControl(polling: WorkflowFile): WorkflowFile {
	const nodes = structuredClone(polling.json.nodes);
	const node = (name: string) => {
		const found = nodes.find((n) => n.name === name);
		if (!found) throw new Error(`${POLLING_EXAMPLE} has no node ${name}`);
		return found;
	};
	const table = node('Table st_tickets');
	table.parameters.tableName = CONTROL_TABLE;
	const upsert = node('Upsert Ticket Row');
	const filters = upsert.parameters.filters as { conditions: Array<{ keyName: string }> };
	filters.conditions = filters.conditions.filter((c) => c.keyName === 'ticket_id');
	const trigger = node(TICKET_TRIGGER);
	return {
		file: `${POLLING_EXAMPLE} (control: plain upsert)`,
		id: 'plainUpsertCtl',
		json: {
			...polling.json,
			id: 'plainUpsertCtl',
			name: 'Control: plain upsert by ticket_id',
			nodes: [trigger, table, upsert],
			connections: {
				[TICKET_TRIGGER]: {
					main: [
						[
							{ node: table.name, type: 'main', index: 0 },
							{ node: upsert.name, type: 'main', index: 0 },
						],
					],
				},
			},
			active: false,
		},
	};
}

export type PollingFigures = Awaited<ReturnType<typeof provePolling>>;

/** Whether every execution finished; none may have failed (each poll's records are written once). */
async function allFinished(rest: N8nRestClient, workflowId: string): Promise<boolean> {
	const executions = await rest.listExecutions(workflowId);
	const failed = executions.find((e) => isFinished(e) && e.status !== 'success');
	if (failed)
		throw new Error(
			`execution ${failed.id} ended ${failed.status}: ${await executionError(rest, failed.id)}`,
		);
	return executions.every(isFinished);
}

function listCalls(sandbox: Sandbox, pathname: RegExp): RequestLogEntry[] {
	return sandbox.log.filter((e) => e.method === 'GET' && pathname.test(e.pathname));
}

/** List calls per poll: a poll's calls follow each other within seconds, polls are a minute apart. */
function perPoll(entries: RequestLogEntry[]): number[] {
	const polls: number[] = [];
	let last = -Infinity;
	for (const e of entries) {
		if (e.startedAt - last > 20_000) polls.push(0);
		polls[polls.length - 1]++;
		last = e.startedAt;
	}
	return polls;
}

/** Executions that started while an earlier one still ran (the case the writes are made safe for). */
function overlapping(executions: ExecutionSummary[]): number {
	const spans = executions.map((e) => [
		Date.parse(e.startedAt ?? ''),
		Date.parse(e.stoppedAt ?? ''),
	]);
	return spans.filter(([start], i) =>
		spans.some(([otherStart, otherStop], j) => j !== i && otherStart < start && start < otherStop),
	).length;
}

/** Makes changes in a store whose clock stands still at `at`: they all carry that updated_at. */
function at<T>(clock: PinnableClock, ms: number, change: () => T): T {
	clock.pin(ms);
	try {
		return change();
	} finally {
		clock.release();
	}
}

export async function provePolling(
	target: SyncTarget,
	sandbox: Sandbox,
	clock: PinnableClock,
	workflows: PollingWorkflows,
	copy: CopyStore,
	log: (line: string) => void,
) {
	const { rest } = target;
	const { polling } = workflows;
	const { store } = sandbox;
	const ticketLists = () => listCalls(sandbox, TICKET_LIST);
	const customerLists = () => listCalls(sandbox, CUSTOMER_LIST);
	const seeded = new Set(store.listTickets().map((t) => t.id));
	const ticketsAtStart = store.ticketCount;
	const customersAtStart = store.customerCount;
	// Older versions, kept for the forced out-of-order runs at the end.
	const tickets = store.listTickets();
	const [burstId, sameStampId, lateId] = [tickets[100].id, tickets[700].id, tickets[1500].id];
	const olderTicket = structuredClone(store.getTicket(burstId) as Ticket);
	const customerId = store.listCustomers()[5].id;
	const olderCustomer = structuredClone(store.getCustomer(customerId) as Customer);
	const cases: string[] = [putHostileText(sandbox, [10, 1200], 3)];

	const driver = sandbox.startDriver({
		ratePerSecond: 5,
		count: 600,
		seed: 21,
		mix: {
			'ticket.updated': 40,
			'ticket.created': 15,
			'reply.created': 15,
			'customer.updated': 20,
			'customer.created': 10,
		},
	});
	let seededCopiedAt: number | undefined;
	const noteSeededCopied = async () => {
		if (seededCopiedAt !== undefined) return;
		const rows = await copy.rows('tickets');
		const present = new Set(rows.map((r) => String(r.ticket_id)));
		if ([...seeded].every((id) => present.has(id))) seededCopiedAt = Date.now();
	};
	try {
		await waitUntil(
			'the first poll',
			() => (ticketLists().length > 0 ? true : undefined),
			WAIT_MS,
			{ intervalMs: 200 },
		);
		const firstPollAt = ticketLists()[0].startedAt;

		// Three changes to one ticket in one millisecond, while the first polls run.
		const burstAt = Date.now();
		at(clock, burstAt, () => {
			store.updateTicket(burstId, { status: 'pending' });
			store.updateTicket(burstId, { priority: 'urgent' });
			store.updateTicket(burstId, {
				status: 'solved',
				subject: 'Changed three times in one millisecond',
			});
		});
		cases.push(`ticket ${burstId}: 3 changes at ${new Date(burstAt).toISOString()}`);
		cases.push(putHostileText(sandbox, [1700], 8));
		store.updateCustomer(customerId, { name: 'Renamed while the first polls run' });

		// A change copied, then a second one with the very same updated_at.
		const stamp = Date.now();
		const first = at(clock, stamp, () =>
			store.updateTicket(sameStampId, {
				status: 'pending',
				subject: 'Same updated_at, first version',
			}),
		);
		await waitUntil(
			`ticket ${sameStampId}'s first version in the copy`,
			async () => {
				await noteSeededCopied();
				await allFinished(rest, polling.id);
				const row = (await copy.rows('tickets')).find(
					(r) =>
						r.ticket_id === sameStampId &&
						r.updated_at === String(formatTimestamp(first.updated_at, sandbox.timestampFormat)),
				);
				return row?.subject === first.subject ? row : undefined;
			},
			WAIT_MS,
			{ intervalMs: 2000 },
		);
		const second = at(clock, stamp, () =>
			store.updateTicket(sameStampId, {
				status: 'solved',
				subject: 'Same updated_at, second version',
			}),
		);
		if (second.updated_at !== first.updated_at)
			throw new Error(`the second version got ${second.updated_at}, not ${first.updated_at}`);
		cases.push(
			`ticket ${sameStampId}: a second version with the copied version's updated_at ${second.updated_at}`,
		);

		// A late commit: its updated_at 30 s below the newest one the last poll listed (the newest
		// updated_at at the moment of its first call: the sandbox stamps with the wall clock).
		const lastPoll = ticketLists()
			.filter((e) => e.query.cursor === undefined)
			.at(-1) as RequestLogEntry;
		const listed = store
			.listTickets({ sortBy: 'updated_at' })
			.find((t) => Date.parse(t.updated_at) <= lastPoll.startedAt) as Ticket;
		const late = at(clock, Date.parse(listed.updated_at) - 30_000, () =>
			store.updateTicket(lateId, { status: 'on_hold', subject: 'Committed late' }),
		);
		cases.push(
			`ticket ${lateId}: updated_at ${late.updated_at}, 30 s below the newest the last poll listed (${listed.updated_at})`,
		);

		const summary = await driver.finished;
		log(
			`driver done: ${summary.total} changes ${JSON.stringify(summary.byKind)}, ${summary.errors} refused`,
		);
		const lastChangeAt = Date.parse(summary.lastChangeWallAt ?? new Date().toISOString());

		let latest: CopyDifferences | undefined;
		await waitUntil(
			'the copy to equal the service',
			async () => {
				await noteSeededCopied();
				if (!(await allFinished(rest, polling.id))) return undefined;
				latest = await compareWithService(copy, sandbox);
				return copyEqual(latest) ? true : undefined;
			},
			WAIT_MS,
			{
				intervalMs: 3000,
				seen: () => latest && describeCopy(latest),
			},
		);
		const lastChangeToEqualSeconds = (Date.now() - lastChangeAt) / 1000;
		if (seededCopiedAt === undefined) throw new Error('the seeded tickets were never all copied');

		// One more poll of each trigger, then its execution (if any) finished: still equal.
		const before = { tickets: ticketLists().length, customers: customerLists().length };
		const polledAgain = async () =>
			ticketLists().length > before.tickets &&
			customerLists().length > before.customers &&
			(await allFinished(rest, polling.id));
		await waitUntil(
			'one more poll of tickets and customers',
			async () => ((await polledAgain()) ? true : undefined),
			WAIT_MS,
			{ intervalMs: 2000 },
		);
		const afterOneMorePoll = await compareWithService(copy, sandbox);
		const executions = await rest.listExecutions(polling.id);

		await proveOutOfOrder(rest, sandbox, workflows, copy, { olderTicket, olderCustomer }, cases);

		return {
			ticketsAtStart,
			customersAtStart,
			changes: summary.total,
			changesByKind: summary.byKind,
			seededCopiedSeconds: (seededCopiedAt - firstPollAt) / 1000,
			lastChangeToEqualSeconds,
			callsPerPoll: { tickets: perPoll(ticketLists()), customers: perPoll(customerLists()) },
			executions: {
				total: executions.length,
				notSuccessful: executions.filter((e) => e.status !== 'success').length,
				overlapping: overlapping(executions),
			},
			...afterOneMorePoll,
			cases,
		};
	} finally {
		await driver.stop();
	}
}

/** An older version finishing after the newer one, as overlapping polls can: run by hand, the older version pinned on the trigger. */
async function proveOutOfOrder(
	rest: N8nRestClient,
	sandbox: Sandbox,
	workflows: PollingWorkflows,
	copy: CopyStore,
	older: { olderTicket: Ticket; olderCustomer: Customer },
	cases: string[],
) {
	const { polling, control } = workflows;
	// Pinned as the trigger emits them: timestamps in the sandbox's format.
	const served = <T extends Ticket | Customer>(r: T): T => ({
		...r,
		created_at: formatTimestamp(r.created_at, sandbox.timestampFormat),
		updated_at: formatTimestamp(r.updated_at, sandbox.timestampFormat),
	});
	const olderTicket = served(older.olderTicket);
	const olderCustomer = served(older.olderCustomer);
	const ticket = sandbox.store.getTicket(olderTicket.id) as Ticket;
	const current = served(ticket);
	for (const [now, before] of [
		[ticket, older.olderTicket],
		[sandbox.store.getCustomer(olderCustomer.id) as Customer, older.olderCustomer],
	] as const)
		if (Date.parse(now.updated_at) <= Date.parse(before.updated_at))
			throw new Error(`${now.id} did not change during the proof`);

	// The shipped workflow: the older versions arrive last, and the current one once more.
	await runToEnd(rest, polling, TICKET_TRIGGER, { [TICKET_TRIGGER]: [{ json: olderTicket }] });
	await runToEnd(rest, polling, CUSTOMER_TRIGGER, {
		[CUSTOMER_TRIGGER]: [{ json: olderCustomer }],
	});
	await runToEnd(rest, polling, TICKET_TRIGGER, { [TICKET_TRIGGER]: [{ json: current }] });
	mustEqual(
		'an older version applied last changed the copy',
		await compareWithService(copy, sandbox),
	);

	const shipped = `ticket ${olderTicket.id}'s version of ${olderTicket.updated_at} and customer ${olderCustomer.id}'s of ${olderCustomer.updated_at} applied after the current ones: the copy kept the current ones`;
	if (!control) {
		cases.push(`out of order: ${shipped}`);
		return;
	}
	// The control, a plain upsert by id, gets the same order and keeps the older version.
	await runToEnd(rest, control, TICKET_TRIGGER, { [TICKET_TRIGGER]: [{ json: current }] });
	await runToEnd(rest, control, TICKET_TRIGGER, { [TICKET_TRIGGER]: [{ json: olderTicket }] });
	const controlRow = (await readTable(rest, CONTROL_TABLE)).find(
		(r) => r.ticket_id === olderTicket.id,
	);
	if (controlRow?.updated_at !== String(olderTicket.updated_at)) {
		throw new Error(
			`the control was not overwritten by the older version (${JSON.stringify(controlRow)}): the forced order did not happen`,
		);
	}
	cases.push(`out of order: ${shipped}; a plain upsert by id kept the older one`);
}

export function printPollingFigures(label: string, f: PollingFigures): string[] {
	return [
		`${label}: ${f.ticketsAtStart} tickets and ${f.customersAtStart} customers at the start, ${f.changes} changes while the first polls ran ${JSON.stringify(f.changesByKind)}`,
		`  every seeded ticket copied ${f.seededCopiedSeconds.toFixed(0)} s after the first poll (Max Pages per Poll 10: 1,000 tickets per poll)`,
		`  list calls per poll: tickets ${JSON.stringify(f.callsPerPoll.tickets)}, customers ${JSON.stringify(f.callsPerPoll.customers)}`,
		`  executions: ${f.executions.total} (${f.executions.notSuccessful} not successful), ${f.executions.overlapping} started while an earlier one still ran; last change → copy equal: ${f.lastChangeToEqualSeconds.toFixed(0)} s`,
		...f.cases.map((c) => `  case: ${c}`),
		`  after the changes stopped and one more poll: ${describeCopy(f)}`,
	];
}
