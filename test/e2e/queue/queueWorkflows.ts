import type { WorkflowJson } from '../../harness';
import { exampleWorkflows, findWorkflow, SANDBOX_CREDENTIAL_ID, type StoredWorkflowJson } from '../fixtures';

type WorkflowNode = WorkflowJson['nodes'][number];

export const IMPORT_WORKFLOW_ID = 'queueImportAllTickets';
export const IMPORT_PATH = 'queue-e2e-import-all-tickets';
export const TICKET_EVENTS_WORKFLOW_ID = 'queueTicketEvents';
export const TICKET_EVENTS_PATH = 'queue-e2e-ticket-events';

const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';
const CREDENTIAL = { supportTicketApi: { id: SANDBOX_CREDENTIAL_ID, name: 'Support Ticket (sandbox)' } };

/**
 * examples/import-all-tickets.json as it is shipped, started by a production Webhook instead of
 * its Manual Trigger: in queue mode production executions are what the workers run (and
 * `n8n execute` refuses queue mode, falling back to running in its own process). The webhook
 * answers with every item of the last node, so the caller sees what the worker imported.
 */
export function importWorkflow(): StoredWorkflowJson {
	const example = findWorkflow(exampleWorkflows(), 'examples/import-all-tickets.json').json;
	const trigger = example.nodes.find((node) => node.type === MANUAL_TRIGGER);
	if (!trigger) throw new Error('examples/import-all-tickets.json no longer starts with a Manual Trigger');
	const webhook: WorkflowNode = {
		id: 'a0e1c2d3-0000-4000-8000-0000000000a1',
		name: 'Import Requested',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: trigger.position,
		webhookId: 'a0e1c2d3-0000-4000-8000-0000000000a2',
		parameters: { httpMethod: 'POST', path: IMPORT_PATH, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
	} as WorkflowNode;
	const connections = { ...example.connections, [webhook.name]: example.connections[trigger.name] };
	delete connections[trigger.name];
	return {
		...example,
		id: IMPORT_WORKFLOW_ID,
		name: `${example.name} (queue mode)`,
		nodes: [webhook, ...example.nodes.filter((node) => node !== trigger)],
		connections,
		active: false,
	};
}

/**
 * A ticket event from the service (a signed webhook delivery) answered by a reply on that ticket:
 * the delivery is received by the webhook process, the reply is sent by the worker.
 */
export function ticketEventsWorkflow(): StoredWorkflowJson {
	const received: WorkflowNode = {
		id: 'a0e1c2d3-0000-4000-8000-0000000000b1',
		name: 'Ticket Created',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: 'a0e1c2d3-0000-4000-8000-0000000000b2',
		parameters: { httpMethod: 'POST', path: TICKET_EVENTS_PATH, responseMode: 'onReceived', options: {} },
	} as WorkflowNode;
	const reply: WorkflowNode = {
		id: 'a0e1c2d3-0000-4000-8000-0000000000b3',
		name: 'Acknowledge',
		type: 'n8n-nodes-support-ticket.supportTicket',
		typeVersion: 1,
		position: [240, 0],
		parameters: {
			resource: 'reply',
			operation: 'create',
			ticketId: { __rl: true, mode: 'id', value: '={{ $json.body.data.id }}' },
			body: '=Thanks, we received "{{ $json.body.data.subject }}" ({{ $json.body.id }}).',
		},
		credentials: CREDENTIAL,
	} as WorkflowNode;
	return {
		id: TICKET_EVENTS_WORKFLOW_ID,
		name: 'Support Ticket: acknowledge new tickets (queue mode)',
		nodes: [received, reply],
		connections: { [received.name]: { main: [[{ node: reply.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

export function productionUrl(webhookBaseUrl: string, path: string): string {
	return `${webhookBaseUrl}/webhook/${path}`;
}
