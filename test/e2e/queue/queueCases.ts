import assert from 'node:assert/strict';

import type { Sandbox } from '../../sandbox';
import type { Suite } from '../suite';
import { finishedExecution, jobForExecution, registeredInstances, type ExecutionRecord } from './records';
import type { ClusterProcess } from './queueCluster';
import { IMPORT_PATH, IMPORT_WORKFLOW_ID, productionUrl, TICKET_EVENTS_PATH, TICKET_EVENTS_WORKFLOW_ID } from './queueWorkflows';
import type { QueueContext } from './run';

const API = '/api/v1/external';

function lastSeq(sandbox: Sandbox): number {
	return sandbox.log.at(-1)?.seq ?? 0;
}

async function post(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(120_000),
	});
	const text = await response.text();
	try {
		return { status: response.status, body: JSON.parse(text) as unknown };
	} catch {
		return { status: response.status, body: text };
	}
}

async function newestExecutionId(context: QueueContext): Promise<number> {
	const [row] = await context.postgres.query<{ id: number | null }>('SELECT max(id) AS id FROM execution_entity');
	return row?.id ?? 0;
}

/**
 * Proof that `execution` ran on the worker: the Bull job that carried it was finished by a
 * process registered as a worker (records in Redis), and each process logged its part.
 */
async function assertRanOnWorker(context: QueueContext, execution: ExecutionRecord, receivedBy: ClusterProcess): Promise<void> {
	const { cluster, redis } = context;
	const job = await jobForExecution(redis, execution.id);
	assert.ok(job, `no Bull job in Redis carried execution ${execution.id}`);
	const instances = await registeredInstances(redis);
	const byHost = new Map(instances.map((instance) => [instance.hostId, instance.instanceType]));
	assert.equal(byHost.get(job.finishedBy ?? ''), 'worker', `job ${job.jobId} was finished by ${job.finishedBy}; registered: ${JSON.stringify(instances)}`);
	const tag = `execution ${execution.id} (job ${job.jobId})`;
	assert.ok(cluster.worker.process.output().includes(`Worker finished ${tag}`), `the worker did not log "Worker finished ${tag}"`);
	// The process that received the call put the execution on the queue; no other process did.
	for (const other of [cluster.main, cluster.webhook]) {
		const enqueued = other.process.output().includes(`Enqueued ${tag}`);
		assert.equal(enqueued, other === receivedBy, `n8n ${other.role} ${enqueued ? 'enqueued' : 'did not enqueue'} ${tag}`);
	}
}

/** The n8n processes of a queue-mode cluster, each with the package from its own user folder. */
export function addQueueCases(suite: Suite, context: () => QueueContext): void {
	let importedIds: string[] = [];

	suite.test('main, worker and webhook process register in Redis as one n8n 2.41.1 cluster', async () => {
		const instances = await registeredInstances(context().redis);
		assert.deepEqual(instances.map((instance) => instance.instanceType).sort(), ['main', 'webhook', 'worker'], JSON.stringify(instances));
		assert.ok(instances.every((instance) => instance.version === '2.41.1'), JSON.stringify(instances));
	});

	suite.test('import-all-tickets example, called on the webhook process, runs on the worker and answers every ticket', async () => {
		const { sandbox, postgres, cluster } = context();
		const since = lastSeq(sandbox);
		const before = await newestExecutionId(context());
		const response = await post(productionUrl(cluster.webhook.url, IMPORT_PATH), {});
		assert.equal(response.status, 200, JSON.stringify(response.body).slice(0, 500));
		const items = response.body as Array<{ id: string }>;
		importedIds = items.map((item) => item.id);
		// The service's default order (newest first), every ticket exactly once, page by page.
		assert.deepEqual(importedIds, sandbox.store.listTickets().map((ticket) => ticket.id));
		const calls = sandbox.log.filter((entry) => entry.seq > since);
		assert.equal(calls.length, Math.ceil(sandbox.store.ticketCount / 100));
		assert.ok(calls.every((entry) => entry.method === 'GET' && entry.pathname === `${API}/tickets` && entry.status === 200));
		const execution = await finishedExecution(postgres, (row) => Number(row.id) > before && row.workflowId === IMPORT_WORKFLOW_ID);
		assert.deepEqual({ mode: execution.mode, status: execution.status, finished: execution.finished }, { mode: 'webhook', status: 'success', finished: true });
		await assertRanOnWorker(context(), execution, cluster.webhook);
	});

	suite.test('main serves no production webhooks: the same URL on main is 404 and starts nothing', async () => {
		const { cluster } = context();
		const before = await newestExecutionId(context());
		const response = await post(productionUrl(cluster.main.url, IMPORT_PATH), {});
		assert.equal(response.status, 404);
		assert.equal(await newestExecutionId(context()), before);
	});

	suite.test('a signed ticket.created delivery reaches the webhook process; the worker replies on the ticket', async () => {
		const { sandbox, postgres, cluster } = context();
		const before = await newestExecutionId(context());
		const hook = sandbox.addWebhook({ url: productionUrl(cluster.webhook.url, TICKET_EVENTS_PATH), events: ['ticket.created'] });
		try {
			const ticket = sandbox.store.createTicket({
				subject: 'Queue mode: printer on fire',
				description: 'Reported while n8n runs as main, worker and webhook process.',
				customer: { email: 'queue@example.com', name: 'Queue Tester' },
			});
			await sandbox.webhooksIdle();
			const delivery = sandbox.deliveries.find((d) => d.payload.data !== null && (d.payload.data as { id?: string }).id === ticket.id);
			assert.ok(delivery, 'the sandbox sent no delivery for the new ticket');
			assert.equal(delivery.status, 200, delivery.error);
			const execution = await finishedExecution(postgres, (row) => Number(row.id) > before && row.workflowId === TICKET_EVENTS_WORKFLOW_ID);
			assert.deepEqual({ mode: execution.mode, status: execution.status }, { mode: 'webhook', status: 'success' });
			const replies = sandbox.store.listReplies(ticket.id);
			assert.equal(replies.length, 1, JSON.stringify(replies));
			assert.equal(replies[0].body, `Thanks, we received "${ticket.subject}" (${delivery.id}).`);
			await assertRanOnWorker(context(), execution, cluster.webhook);
		} finally {
			sandbox.removeWebhook(hook);
		}
	});

	suite.test('nothing lives in module memory: a restarted worker (a fresh process) imports exactly the same tickets', async () => {
		const { sandbox, postgres, cluster } = context();
		assert.ok(importedIds.length > 0, 'the first import did not run');
		await cluster.restart('worker');
		const before = await newestExecutionId(context());
		const response = await post(productionUrl(cluster.webhook.url, IMPORT_PATH), {});
		assert.equal(response.status, 200, JSON.stringify(response.body).slice(0, 500));
		const ids = (response.body as Array<{ id: string }>).map((item) => item.id);
		// The same answer as the first import, plus the ticket created since (newest first).
		assert.deepEqual(ids, sandbox.store.listTickets().map((ticket) => ticket.id));
		assert.deepEqual(ids.slice(ids.length - importedIds.length), importedIds);
		const execution = await finishedExecution(postgres, (row) => Number(row.id) > before && row.workflowId === IMPORT_WORKFLOW_ID);
		assert.equal(execution.status, 'success');
		await assertRanOnWorker(context(), execution, cluster.webhook);
	});
}
