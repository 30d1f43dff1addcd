import type { INodeProperties } from 'n8n-workflow';

import * as customer from './customer/Customer.resource';
import * as reply from './reply/Reply.resource';
import * as ticket from './ticket/Ticket.resource';

/** Every resource: a new one is its folder and a line here. */
export const resources = { ticket, reply, customer };

/** Resource picker, then each resource's operations and their fields. */
export const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Customer', value: 'customer' },
			{ name: 'Reply', value: 'reply' },
			{ name: 'Ticket', value: 'ticket' },
		],
		default: 'ticket',
	},
	...Object.values(resources).flatMap((resource) => resource.description),
];
