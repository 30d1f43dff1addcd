import type { INode } from 'n8n-workflow';

import { exampleWorkflows, findWorkflow, type StoredWorkflowJson, type WorkflowFile } from '../fixtures';

export const IMPORT_EXAMPLE = 'examples/import-all-tickets.json';
export const WEBHOOK_SYNC_EXAMPLE = 'examples/webhook-sync.json';
export const IMPORT_BY_WEBHOOK_ID = 'queueImportAllTickets';
export const IMPORT_PATH = 'queue-e2e-import-all-tickets';

const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';

/** The shipped examples the queue suite runs unchanged. */
export function queueExamples(): { importAll: WorkflowFile; webhookSync: WorkflowFile } {
	const examples = exampleWorkflows();
	return { importAll: findWorkflow(examples, IMPORT_EXAMPLE), webhookSync: findWorkflow(examples, WEBHOOK_SYNC_EXAMPLE) };
}

/**
 * examples/import-all-tickets.json started by a production Webhook instead of its Manual Trigger,
 * everything else as shipped: production executions are what workers run in any queue set-up
 * (`n8n execute` does not support queue mode and runs in its own process instead). The webhook
 * answers with every item of the last node, so the caller sees what the worker imported.
 */
export function importByWebhookWorkflow(example: StoredWorkflowJson): StoredWorkflowJson {
	const trigger = example.nodes.find((node) => node.type === MANUAL_TRIGGER);
	if (!trigger) throw new Error(`${IMPORT_EXAMPLE} no longer starts with a Manual Trigger`);
	const webhook: INode = {
		id: 'a0e1c2d3-0000-4000-8000-0000000000a1',
		name: 'Import Requested',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: trigger.position,
		webhookId: 'a0e1c2d3-0000-4000-8000-0000000000a2',
		parameters: { httpMethod: 'POST', path: IMPORT_PATH, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
	};
	const connections = { ...example.connections, [webhook.name]: example.connections[trigger.name] };
	delete connections[trigger.name];
	return {
		...example,
		id: IMPORT_BY_WEBHOOK_ID,
		name: `${example.name} (production webhook)`,
		nodes: [webhook, ...example.nodes.filter((node) => node !== trigger)],
		connections,
		active: false,
	};
}

/** A production webhook URL (the webhook process serves them; main is told not to). */
export function productionUrl(baseUrl: string, path: string): string {
	return `${baseUrl}/webhook/${path}`;
}

/** The Support Ticket Trigger's production URL: `<webhookId>/<path>` of its one webhook. */
export function triggerUrl(baseUrl: string, workflow: StoredWorkflowJson): string {
	const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-support-ticket.supportTicketTrigger');
	if (!trigger?.webhookId) throw new Error(`${workflow.name} has no Support Ticket Trigger with a webhookId`);
	return productionUrl(baseUrl, `${trigger.webhookId}/support-ticket`);
}
