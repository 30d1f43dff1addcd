import type { IConnection, INode } from 'n8n-workflow';

import {
	e2eWorkflows,
	exampleWorkflows,
	findWorkflow,
	type StoredWorkflowJson,
	type WorkflowFile,
} from '../fixtures';

/** Triggers that start a run from the editor or on a timer: the suite starts those runs by webhook. */
const STARTERS = new Set(['n8n-nodes-base.manualTrigger', 'n8n-nodes-base.scheduleTrigger']);

export interface QueueExamples {
	importAll: WorkflowFile;
	pageByPage: WorkflowFile;
	webhookSync: WorkflowFile;
}

/** The shipped examples the queue suite runs, and the page-by-page loop kept as an e2e workflow. */
export function queueExamples(): QueueExamples {
	const examples = exampleWorkflows();
	return {
		importAll: findWorkflow(examples, 'examples/import-all-tickets.json'),
		pageByPage: findWorkflow(e2eWorkflows(), 'test/e2e/workflows/import-page-by-page.json'),
		webhookSync: findWorkflow(examples, 'examples/webhook-sync.json'),
	};
}

/** The stored copy's id (at most 16 characters, fixtures.tsx MAX_WORKFLOW_ID_LENGTH, or n8n drops its static data) and its production webhook. */
export const IMPORT_BY_WEBHOOK = {
	id: 'queueImportAll',
	path: 'queue-e2e-import-all-tickets',
	webhookId: 'a0e1c2d3-0000-4000-8000-0000000000a1',
};

// An example started by one production Webhook instead of its triggers: workers run production executions, and
// `n8n execute` has no queue mode. The webhook answers with all items of the last node.
export function startedByWebhook(
	example: WorkflowFile,
	options = IMPORT_BY_WEBHOOK,
): StoredWorkflowJson {
	const { json } = example;
	const starters = json.nodes.filter((node) => STARTERS.has(node.type));
	if (starters.length === 0)
		throw new Error(`${example.file} has no Manual or Schedule Trigger any more`);
	const targets = new Map<string, IConnection>();
	for (const starter of starters) {
		for (const target of json.connections[starter.name]?.main?.[0] ?? [])
			targets.set(target.node, target);
	}
	const webhook: INode = {
		id: `${options.id}-webhook`,
		name: 'Run Requested',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: starters[0].position,
		webhookId: options.webhookId,
		parameters: {
			httpMethod: 'POST',
			path: options.path,
			responseMode: 'lastNode',
			responseData: 'allEntries',
			options: {},
		},
	};
	const connections = Object.fromEntries(
		Object.entries(json.connections).filter(
			([from]) => !starters.some((starter) => starter.name === from),
		),
	);
	connections[webhook.name] = { main: [[...targets.values()]] };
	return {
		...json,
		id: options.id,
		name: `${json.name} (production webhook)`,
		nodes: [webhook, ...json.nodes.filter((node) => !starters.includes(node))],
		connections,
		active: false,
	};
}

/** A production webhook URL (the webhook process serves them; main is told not to). */
export function productionUrl(baseUrl: string, path: string): string {
	return `${baseUrl}/webhook/${path}`;
}
