import {
	NodeConnectionTypes,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../shared/transport/credentialType';
import { receiveDelivery } from './receiveDelivery';
import { triggerProperties } from './triggerProperties';

export class SupportTicketTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Support Ticket Trigger',
		name: 'supportTicketTrigger',
		icon: {
			light: 'file:../../icons/supportTicket.svg',
			dark: 'file:../../icons/supportTicket.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow when the External Support Ticket API sends a signed webhook',
		defaults: { name: 'Support Ticket Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Empty, so n8n answers with our webhookResponse instead of
				// the literal text "firstEntryJson".
				responseData: '',
				path: 'support-ticket',
			},
		],
		properties: triggerProperties,
	};

	// The API has no webhook registration (docs/api.md#webhooks); activation still reads the
	// credential, so a missing one fails loudly.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				await this.getCredentials(CREDENTIAL_TYPE);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery.call(this);
	}
}
