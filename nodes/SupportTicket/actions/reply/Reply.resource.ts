import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as getAll from './getAll.operation';

export { create, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['reply'] } },
		options: [
			{ name: 'Create', value: 'create', description: 'Add a reply to a ticket', action: 'Create a reply' },
			{ name: 'Get Many', value: 'getAll', description: 'List the replies of a ticket', action: 'Get many replies' },
		],
		default: 'create',
	},
	...create.description,
	...getAll.description,
];
