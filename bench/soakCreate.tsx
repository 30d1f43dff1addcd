/**
 * Soak 2: a 500-item workflow creates 500 tickets while the sandbox answers 30% of requests with
 * 429/503 and random latency, one item at a time or several concurrently (Options → Concurrent
 * Requests). A faulted POST was not processed, so the node may and must retry it: afterwards
 * exactly 500 new tickets exist, each once, and the node returned 500 items in input order.
 */
import type { IDataObject } from 'n8n-workflow';

import { itemsWorkflow, runWorkflow } from '../test/harness';
import type { FaultOptions, Sandbox } from '../test/sandbox';
import { DEFAULT_RETRY_POLICY } from '../nodes/shared/retryPolicy';
import { NODE_TYPE } from './engineTraversal';
import type { SoakStep } from './soakStep';

/**
 * The chance that a run of `count` requests meets one that is faulted on every attempt, so the
 * node gives up on it: each attempt is faulted independently with the configured rate.
 */
function giveUpOdds(count: number, faults: FaultOptions): string {
	const rate = (faults.rate429 ?? 0) + (faults.rate503 ?? 0);
	const perRequest = rate ** DEFAULT_RETRY_POLICY.maxAttemptsNotProcessed;
	const perRun = 1 - (1 - perRequest) ** count;
	return `odds: at ${(rate * 100).toFixed(0)}% faults and ${DEFAULT_RETRY_POLICY.maxAttemptsNotProcessed} attempts a request is given up with p = ${(perRequest * 100).toFixed(3)}%, a run of ${count} with p = ${(perRun * 100).toFixed(0)}%`;
}

export async function soakCreate(sandbox: Sandbox, count: number, faults: FaultOptions, concurrentRequests: number): Promise<SoakStep> {
	const title = `${count} ticket creations (a ${count}-item workflow, Concurrent Requests ${concurrentRequests}), 429/503 faults and latency`;
	const tag = `soak-${Date.now().toString(36)}`;
	const items: IDataObject[] = Array.from({ length: count }, (_, i) => ({
		subject: `${tag} #${i + 1}`,
		description: `Soak ticket ${i + 1} of ${count}`,
		email: `soak-creator-${i % 20}@example.com`,
	}));
	const before = sandbox.store.ticketCount;
	sandbox.clearLog();
	sandbox.setFaults(faults);
	const started = performance.now();
	let result: Awaited<ReturnType<typeof runWorkflow>>;
	try {
		result = await runWorkflow(
			itemsWorkflow(items, NODE_TYPE, {
				resource: 'ticket',
				operation: 'create',
				subject: '={{ $json.subject }}',
				description: '={{ $json.description }}',
				customerEmail: '={{ $json.email }}',
				options: { concurrentRequests },
			}),
			{ supportTicketApi: { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret } },
		);
	} finally {
		sandbox.setFaults({});
	}
	const seconds = (performance.now() - started) / 1000;

	const subjects = new Map<string, number>();
	for (const ticket of sandbox.store.listTickets()) {
		if (ticket.subject.startsWith(`${tag} #`)) subjects.set(ticket.subject, (subjects.get(ticket.subject) ?? 0) + 1);
	}
	const created = [...subjects.values()].reduce((sum, n) => sum + n, 0);
	const duplicated = [...subjects.values()].filter((n) => n > 1).length;
	const posts = sandbox.log.filter((entry) => entry.method === 'POST');
	const injected = posts.filter((entry) => entry.fault !== undefined).length;
	const output = result.error ? 0 : result.output('Node').length;
	const inOrder = !result.error && result.output('Node').every((item, i) => item.json.subject === items[i].subject);

	const violations: string[] = [];
	if (result.error) violations.push(`the creation run failed: ${result.error.message}`);
	if (created !== count) violations.push(`${created} tickets exist afterwards, expected exactly ${count}`);
	if (duplicated > 0) violations.push(`${duplicated} tickets were created more than once`);
	if (!result.error && output !== count) violations.push(`the node returned ${output} items, expected ${count}`);
	if (!result.error && !inOrder) violations.push('the output is not in input order');
	return {
		title,
		lines: [
			`${result.error ? `failed after ${seconds.toFixed(1)} s: ${result.error.message}` : `succeeded in ${seconds.toFixed(1)} s`}; node output ${output} items`,
			`tickets afterwards: ${sandbox.store.ticketCount - before} new (${created} with this run's subjects, ${subjects.size} distinct, ${duplicated} duplicated)`,
			`${posts.length} POSTs: ${posts.filter((e) => e.status === 201).length} answered 201, ${injected} injected 429/503 retried`,
			giveUpOdds(count, faults),
		],
		violations,
	};
}
