import assert from 'node:assert/strict';

import type { Sandbox, WebhookDelivery } from '../../../sandbox';
import {
	assertEveryTicketPageByPage,
	callsSince,
	lastSeq,
	triggerWebhookPath,
	type WorkflowFile,
} from '../fixtures';
import type { N8nInstall } from '../n8n/n8nInstall';
import type { N8nRestClient } from '../n8n/restClient';
import { nodeOutput, onlyItem, type PrintedRun } from '../runData';
import type { Suite } from '../suite';
import type { ClusterProcess, QueueCluster } from './queueCluster';
import { IMPORT_BY_WEBHOOK, productionUrl, type QueueExamples } from './queueWorkflows';
import {
	type ExecutionRecord,
	finishedExecution,
	jobForExecution,
	registeredInstances,
	storedRun,
} from './records';
import type { PostgresServer } from './services/postgresServer';
import type { RedisServer } from './services/redisServer';
import { postJson, sendDelivery } from '../signedDelivery';

/** What every queue-mode case gets: the running cluster, its services and the examples imported into it. */
export interface QueueContext {
	install: N8nInstall;
	sandbox: Sandbox;
	postgres: PostgresServer;
	redis: RedisServer;
	cluster: QueueCluster;
	/** The editor's REST API on main, logged in as the owner. */
	rest: N8nRestClient;
	examples: QueueExamples;
}

const LOG_WAIT_MS = 10_000;

/** examples/webhook-sync.json's production URL on the webhook process. */
const webhookSyncUrl = ({ cluster, examples }: QueueContext) =>
	`${cluster.webhook.url}${triggerWebhookPath(examples.webhookSync)}`;

async function newestExecutionId(context: QueueContext): Promise<number> {
	const [row] = await context.postgres.query<{ id: number | null }>(
		'SELECT max(id) AS id FROM execution_entity',
	);
	return row?.id ?? 0;
}

const ids = (items: Array<{ id?: unknown }>) => items.map((item) => item.id);

/** Rows of `workflowId`'s executions after execution `before`. */
const after =
	(before: number, workflowId: string) =>
	(row: ExecutionRecord): boolean =>
		Number(row.id) > before && row.workflowId === workflowId;

// The wanted execution, finished, started as `mode` and successful, and run on the worker: its Bull job finished by the
// registered worker, put on the queue by the process that received the request alone, and logged by the worker.
async function ranOnWorker(
	context: QueueContext,
	isWanted: (row: ExecutionRecord) => boolean,
	mode: string,
	receivedBy: ClusterProcess,
): Promise<ExecutionRecord> {
	const { cluster, redis, postgres } = context;
	const execution = await finishedExecution(postgres, isWanted);
	assert.deepEqual({ mode: execution.mode, status: execution.status }, { mode, status: 'success' });
	const job = await jobForExecution(redis, execution.id);
	assert.ok(job, `no Bull job in Redis carried execution ${execution.id}`);
	const instances = await registeredInstances(redis);
	const kindOf = new Map(instances.map((instance) => [instance.hostId, instance.instanceType]));
	assert.equal(
		kindOf.get(job.finishedBy ?? ''),
		'worker',
		`job ${job.jobId} was finished by ${job.finishedBy}; registered: ${JSON.stringify(instances)}`,
	);
	const tag = `execution ${execution.id} (job ${job.jobId})`;
	// Log lines arrive through pipes: wait (bounded) for the ones that must come, then check the rest.
	await cluster.worker.process.waitForOutput(`Worker finished ${tag}`, LOG_WAIT_MS);
	await receivedBy.process.waitForOutput(`Enqueued ${tag}`, LOG_WAIT_MS);
	for (const other of [cluster.main, cluster.webhook].filter((process) => process !== receivedBy)) {
		assert.ok(
			!other.process.output().includes(`Enqueued ${tag}`),
			`n8n ${other.role} enqueued ${tag} too`,
		);
	}
	return execution;
}

/** "Execute workflow" from the Manual Trigger; with OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS main queues it, the worker runs it. */
async function runFromEditor(context: QueueContext, workflow: WorkflowFile): Promise<PrintedRun> {
	const { rest, postgres, install, cluster } = context;
	const trigger = workflow.json.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	assert.ok(trigger, `${workflow.file} has no Manual Trigger`);
	const executionId = await rest.runManually(workflow.id, trigger.name);
	await ranOnWorker(context, (row) => row.id === executionId, 'manual', cluster.main);
	return storedRun(postgres, install, executionId);
}

/** import-all-tickets by its production webhook on the webhook process: run on the worker, the ticket ids it answered. */
async function importByWebhook(context: QueueContext): Promise<string[]> {
	const { webhook } = context.cluster;
	const before = await newestExecutionId(context);
	const response = await postJson(productionUrl(webhook.url, IMPORT_BY_WEBHOOK.path), {});
	assert.equal(response.status, 200, JSON.stringify(response.body).slice(0, 500));
	await ranOnWorker(context, after(before, IMPORT_BY_WEBHOOK.id), 'webhook', webhook);
	// The webhook answers with the last node's items: the worker's result, relayed back.
	return (response.body as Array<{ id: string }>).map((item) => item.id);
}

/** The n8n processes of a queue-mode cluster, each with the package from its own user folder. */
export function addQueueCases(suite: Suite, context: () => QueueContext): void {
	let acceptedDelivery: WebhookDelivery | undefined;

	suite.test(
		'main, worker and webhook process register in Redis as one n8n 2.41.1 cluster; the worker reports ready',
		async () => {
			const { redis, cluster } = context();
			const instances = await registeredInstances(redis);
			assert.deepEqual(
				instances.map((instance) => instance.instanceType).sort(),
				['main', 'webhook', 'worker'],
				JSON.stringify(instances),
			);
			assert.ok(
				instances.every((instance) => instance.version === '2.41.1'),
				JSON.stringify(instances),
			);
			// The worker's health server (QUEUE_HEALTH_CHECK_ACTIVE): its database and Redis connections are up.
			const readiness = await fetch(`${cluster.worker.url}/healthz/readiness`, {
				signal: AbortSignal.timeout(10_000),
			});
			assert.equal(readiness.status, 200, await readiness.text());
		},
	);

	// What the worker saved: every ticket, in the service's default order (newest first), a list call per page; the loop
	// runs its reading node once per page.
	const editorRuns = [
		{ name: 'examples/import-all-tickets.json', key: 'importAll', output: 'Get All Tickets' },
		{
			name: 'test/e2e/workflows/import-page-by-page.json',
			key: 'pageByPage',
			output: 'Write Page',
		},
	] as const;
	for (const { name, key, output } of editorRuns)
		suite.test(`${name} run from the editor ("Execute workflow") runs on the worker`, async () => {
			const { sandbox, examples } = context();
			const since = lastSeq(sandbox);
			const run = await runFromEditor(context(), examples[key]);
			const tickets = nodeOutput(run, output);
			const pages = assertEveryTicketPageByPage(sandbox, ids(tickets), since);
			assert.deepEqual(tickets[0], sandbox.store.listTickets()[0]);
			if (key === 'pageByPage')
				assert.equal(run.data.resultData.runData['Get Page of Tickets']?.length, pages);
		});

	suite.test(
		'main serves no production webhooks: the same URL on main is 404 and starts nothing',
		async () => {
			const { cluster } = context();
			const before = await newestExecutionId(context());
			const response = await postJson(productionUrl(cluster.main.url, IMPORT_BY_WEBHOOK.path), {});
			assert.equal(response.status, 404);
			assert.equal(await newestExecutionId(context()), before);
		},
	);

	suite.test(
		'examples/webhook-sync.json: a signed ticket.created delivery is verified on the webhook process, the worker reads the ticket',
		async () => {
			const { sandbox, postgres, cluster, install, examples } = context();
			const before = await newestExecutionId(context());
			const hook = sandbox.addWebhook({
				url: webhookSyncUrl(context()),
				events: ['ticket.created'],
			});
			try {
				const since = lastSeq(sandbox);
				const ticket = sandbox.store.createTicket({
					subject: 'Queue mode: printer on fire',
					description: 'Reported while n8n runs as main, worker and webhook process.',
					customer: { email: 'queue@example.com', name: 'Queue Tester' },
				});
				await sandbox.webhooksIdle();
				const delivery = sandbox.deliveries.find(
					(d) =>
						d.event === 'ticket.created' &&
						(d.payload.data as { id?: string } | null)?.id === ticket.id,
				);
				assert.ok(delivery, 'the sandbox sent no delivery for the new ticket');
				assert.equal(delivery.status, 200, delivery.error);
				acceptedDelivery = delivery;
				const execution = await ranOnWorker(
					context(),
					after(before, examples.webhookSync.id),
					'webhook',
					cluster.webhook,
				);
				const run = await storedRun(postgres, install, execution.id);
				assert.deepEqual(
					onlyItem(run, 'On Ticket Event'),
					delivery.payload as unknown as Record<string, unknown>,
				);
				assert.deepEqual(
					onlyItem(run, 'Get Ticket'),
					sandbox.store.getTicket(ticket.id) as unknown as Record<string, unknown>,
				);
				assert.deepEqual(callsSince(sandbox, since), [`GET /tickets/${ticket.id} 200`]);
			} finally {
				sandbox.removeWebhook(hook);
			}
		},
	);

	suite.test(
		'a forged delivery is answered 401 by the trigger in the webhook process and starts nothing',
		async () => {
			const { sandbox, cluster } = context();
			const before = await newestExecutionId(context());
			const body = JSON.stringify({
				id: 'evt_forged_1',
				event: 'ticket.created',
				created_at: new Date().toISOString(),
				data: { id: 'tkt_1' },
			});
			const answer = await sendDelivery(
				webhookSyncUrl(context()),
				{ body, eventId: 'evt_forged_1' },
				{ apiKey: sandbox.apiKey, secret: 'not-the-secret' },
			);
			assert.equal(answer.status, 401, JSON.stringify(answer.body));
			assert.equal((answer.body as { error?: string }).error, 'invalid_signature');
			assert.equal(await newestExecutionId(context()), before);
			// The package's own code ran in the webhook process: its warning is in that process's log only.
			const warning = 'Support Ticket Trigger rejected a delivery (invalid_signature)';
			await cluster.webhook.process.waitForOutput(warning, LOG_WAIT_MS);
			assert.ok(
				!cluster.main.process.output().includes(warning) &&
					!cluster.worker.process.output().includes(warning),
			);
		},
	);

	suite.test(
		'a repeated delivery is dropped after the webhook process restarts: the seen event id is in the database, not in module memory',
		async () => {
			const { sandbox, postgres, cluster, examples } = context();
			assert.ok(acceptedDelivery, 'the first delivery did not get through');
			await cluster.restart('webhook');
			const before = await newestExecutionId(context());
			const body = JSON.stringify(acceptedDelivery.payload);
			const answer = await sendDelivery(
				webhookSyncUrl(context()),
				{ body, eventId: acceptedDelivery.id },
				{ apiKey: sandbox.apiKey, secret: sandbox.apiSecret },
			);
			assert.equal(answer.status, 200, JSON.stringify(answer.body));
			assert.deepEqual(answer.body, {
				received: true,
				started: false,
				reason: `event ${acceptedDelivery.id} was already received`,
			});
			assert.equal(await newestExecutionId(context()), before);
			// Where the fresh process found it: the workflow's static data, saved by the previous one.
			const [stored] = await postgres.query<{ staticData: unknown }>(
				`SELECT "staticData" FROM workflow_entity WHERE id = '${examples.webhookSync.id}'`,
			);
			assert.ok(
				JSON.stringify(stored?.staticData ?? null).includes(`"${acceptedDelivery.id}#`),
				`workflow static data: ${JSON.stringify(stored)}`,
			);
		},
	);

	suite.test(
		'the same import started by a production webhook: received by the webhook process, run by the worker; a restarted worker (a fresh process) imports exactly the same',
		async () => {
			const { sandbox, cluster } = context();
			const warm = await importByWebhook(context());
			// Every ticket, in the service's default order (newest first).
			assert.deepEqual(warm, ids(sandbox.store.listTickets()));
			await cluster.restart('worker');
			const fresh = await importByWebhook(context());
			assert.deepEqual(fresh, warm);
		},
	);
}
