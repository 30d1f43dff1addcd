/**
 * The node side: a Support Ticket "Get Many" (Return All, or a Limit) workflow run through
 * n8n-core's WorkflowExecute in-process, with the package loaded from dist/ as n8n loads it.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runWorkflow, singleNodeWorkflow } from '../test/harness';
import type { SignedTarget } from './rawTraversal';

export const NODE_TYPE = 'n8n-nodes-support-ticket.supportTicket';

export function getManyParameters(limit?: number): IDataObject {
	return limit === undefined
		? { resource: 'ticket', operation: 'getAll', returnAll: true }
		: { resource: 'ticket', operation: 'getAll', returnAll: false, limit };
}

/** The node's output items; throws the workflow's error as n8n shows it. */
export async function engineTraversal(target: SignedTarget, limit?: number): Promise<INodeExecutionData[]> {
	const result = await runWorkflow(singleNodeWorkflow(NODE_TYPE, getManyParameters(limit)), {
		supportTicketApi: { baseUrl: target.baseUrl, apiKey: target.apiKey, apiSecret: target.apiSecret },
	});
	if (result.error) throw result.error;
	return result.output('Node');
}
