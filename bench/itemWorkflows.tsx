/**
 * The per-item workflows the user-facing bench runs: N ticket creates or N ticket gets, by this
 * node (Concurrent Requests k) or by n8n's own HTTP Request node (n8n-nodes-base, default
 * settings, the Support Ticket credential as a predefined credential type), which is what a user
 * would otherwise wire.
 */
import type { IDataObject } from 'n8n-workflow';

import { itemsWorkflow, type WorkflowJson } from '../test/harness';
import { NODE_TYPE } from './engineTraversal';

export type ItemOperation = 'create' | 'get';

/** `node-<k>`: this node with Concurrent Requests k; `http-request[-retry]`: n8n's node, with Retry On Fail (3 tries, 1 s apart). */
export type ItemSide = `node-${number}` | 'http-request' | 'http-request-retry';

export const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';
/** The HTTP Request node's default version in n8n 2.41. */
const HTTP_REQUEST_VERSION = 4.5;

/** Input items: one subject per create (tagged, so the sandbox log tells duplicates), one id per get. */
export function itemInputs(operation: ItemOperation, count: number, tag: string, ticketIds: string[]): IDataObject[] {
	return Array.from({ length: count }, (_, i) =>
		operation === 'create' ? { subject: `${tag} #${i}`, email: `bench-${i % 50}@example.com` } : { id: ticketIds[i % ticketIds.length] },
	);
}

export function itemWorkflow(side: ItemSide, operation: ItemOperation, items: IDataObject[], baseUrl: string): WorkflowJson {
	if (side.startsWith('node-')) {
		const concurrentRequests = Number(side.slice('node-'.length));
		const parameters: IDataObject =
			operation === 'create'
				? { resource: 'ticket', operation: 'create', subject: '={{ $json.subject }}', description: 'bench', customerEmail: '={{ $json.email }}' }
				: { resource: 'ticket', operation: 'get', ticketId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } };
		return itemsWorkflow(items, NODE_TYPE, { ...parameters, options: { concurrentRequests } });
	}
	const url = `${baseUrl}/api/v1/external/tickets`;
	const parameters: IDataObject =
		operation === 'create'
			? {
					method: 'POST',
					url,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'supportTicketApi',
					sendBody: true,
					specifyBody: 'json',
					jsonBody: '={{ JSON.stringify({ subject: $json.subject, description: "bench", customer: { email: $json.email } }) }}',
					options: {},
				}
			: { method: 'GET', url: `=${url}/{{ $json.id }}`, authentication: 'predefinedCredentialType', nodeCredentialType: 'supportTicketApi', options: {} };
	return itemsWorkflow(items, HTTP_REQUEST_TYPE, parameters, {
		typeVersion: HTTP_REQUEST_VERSION,
		...(side === 'http-request-retry' ? { retryOnFail: true } : {}),
	});
}
