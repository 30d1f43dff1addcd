/**
 * Soak 1: Return All of 10,000 tickets through the engine while the sandbox answers 30% of
 * requests with 429/503 and random latency, and while new tickets are being created. Every
 * ticket that existed at the start must come back exactly once, nothing may come back twice,
 * and the run must succeed.
 *
 * New tickets are written straight into the sandbox's store on a timer (not over HTTP), so they
 * consume no fault draws: the faults the node meets replay identically for a given fault seed.
 * Creating starts once the first page has been answered, so in newest-first order no new ticket
 * may come back at all (each sorts before the cursor); oldest first, they come at the end.
 */
import type { IDataObject } from 'n8n-workflow';

import { runWorkflow, singleNodeWorkflow } from '../test/harness';
import type { FaultOptions, Sandbox } from '../test/sandbox';
import { NODE_TYPE } from './engineTraversal';
import type { SoakStep } from './soakStep';

export interface ReturnAllSoakOptions {
	faults: FaultOptions;
	/** Milliseconds between two tickets created during the traversal. */
	createEveryMs: number;
	sortOrder: 'desc' | 'asc';
}

export async function soakReturnAll(sandbox: Sandbox, options: ReturnAllSoakOptions): Promise<SoakStep> {
	const title = `Return All of ${sandbox.store.ticketCount.toLocaleString('en')} tickets (created_at ${options.sortOrder}), 429/503 faults and latency, tickets created meanwhile`;
	const initial = new Set(sandbox.store.listTickets().map((ticket) => ticket.id));
	sandbox.clearLog();
	sandbox.setFaults(options.faults);
	const createdMeanwhile = new Set<string>();
	let sequence = 0;
	const creator = setInterval(() => {
		if (sandbox.countCalls({ pathname: '/api/v1/external/tickets', status: 200 }) === 0) return;
		const ticket = sandbox.store.createTicket({
			subject: `created during the soak traversal #${++sequence}`,
			description: 'A new ticket while Return All is paging.',
			customer: { email: `soak-${sequence % 50}@example.com` },
		});
		createdMeanwhile.add(ticket.id);
	}, options.createEveryMs);

	const started = performance.now();
	let result: Awaited<ReturnType<typeof runWorkflow>>;
	try {
		result = await runWorkflow(
			singleNodeWorkflow(NODE_TYPE, { resource: 'ticket', operation: 'getAll', returnAll: true, options: { sortBy: 'created_at', sortOrder: options.sortOrder } }),
			{ supportTicketApi: { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret } },
		);
	} finally {
		clearInterval(creator);
		sandbox.setFaults({});
	}
	const seconds = (performance.now() - started) / 1000;

	const log = sandbox.log.filter((entry) => entry.pathname === '/api/v1/external/tickets');
	const faults = log.filter((entry) => entry.fault !== undefined).length;
	const pages = log.filter((entry) => entry.status === 200).length;
	if (result.error) {
		return {
			title,
			lines: [`the run failed after ${seconds.toFixed(1)} s, ${pages} pages, ${faults} injected faults: ${result.error.message}`],
			violations: [`Return All (${options.sortOrder}) under faults failed: ${result.error.message}`],
		};
	}

	const counts = new Map<string, number>();
	for (const item of result.output('Node')) {
		const id = (item.json as IDataObject).id as string;
		counts.set(id, (counts.get(id) ?? 0) + 1);
	}
	const missing = [...initial].filter((id) => !counts.has(id)).length;
	const duplicated = [...counts.values()].filter((n) => n > 1).length;
	const initialOnce = [...initial].filter((id) => counts.get(id) === 1).length;
	const newReturned = [...counts.keys()].filter((id) => createdMeanwhile.has(id)).length;
	const unknown = [...counts.keys()].filter((id) => !initial.has(id) && !createdMeanwhile.has(id)).length;
	const returned = [...counts.values()].reduce((sum, n) => sum + n, 0);

	const violations: string[] = [];
	if (initialOnce !== initial.size) violations.push(`${initial.size - initialOnce} of the ${initial.size} tickets that existed at the start did not come back exactly once (${missing} missing)`);
	if (duplicated > 0) violations.push(`${duplicated} tickets came back more than once`);
	if (unknown > 0) violations.push(`${unknown} returned ids are neither initial nor created meanwhile`);
	if (options.sortOrder === 'desc' && newReturned > 0) violations.push(`${newReturned} tickets created during a newest-first traversal came back (they sort before the cursor)`);
	return {
		title,
		lines: [
			`${returned} items in ${seconds.toFixed(1)} s: ${initialOnce} of ${initial.size} initial tickets exactly once, ${missing} missing, ${duplicated} duplicated`,
			`${createdMeanwhile.size} tickets created during the traversal, ${newReturned} of them returned${options.sortOrder === 'desc' ? ' (newest first: none expected)' : ' (oldest first: those created before the traversal reached the end)'}`,
			`${log.length} requests: ${pages} pages answered, ${faults} injected 429/503 retried`,
		],
		violations,
	};
}
