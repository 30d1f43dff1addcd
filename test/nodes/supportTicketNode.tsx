import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { runWorkflow, singleNodeWorkflow } from '../harness';

export const NODE = 'n8n-nodes-support-ticket.supportTicket';
export const POLL_TRIGGER = 'n8n-nodes-support-ticket.supportTicketPollTrigger';

/** A resource locator By ID. */
export const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** The Support Ticket node alone in a workflow, run with these parameters. */
export const runNode = (parameters: IDataObject, credentials: ICredentialDataDecryptedObject) =>
	runWorkflow(singleNodeWorkflow(NODE, parameters), { supportTicketApi: credentials });
