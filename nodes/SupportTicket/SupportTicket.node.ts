import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../shared/transport/credentialType';
import { properties } from './actions/resources';
import { router } from './actions/router';
import { listSearch } from './methods';

export class SupportTicket implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Support Ticket',
		name: 'supportTicket',
		icon: {
			light: 'file:../../icons/supportTicket.svg',
			dark: 'file:../../icons/supportTicket.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Create, read and update tickets, replies and customers in the External Support Ticket API',
		defaults: { name: 'Support Ticket' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties,
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
