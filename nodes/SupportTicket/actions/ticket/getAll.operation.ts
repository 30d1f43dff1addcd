import { updateDisplayOptions, type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { paginate } from '../../transport/paginate';
import { readLimit, resolveChoice } from '../../helpers/readParameters';
import type { QueryInput } from '../../../shared/serializeQuery';
import { returnAllAndLimit, ticketStateFields } from '../common.descriptions';

const properties: INodeProperties[] = [
	...returnAllAndLimit({ resource: ['ticket'], operation: ['getAll'] }),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: ticketStateFields.map((field) => ({
			...field,
			description: field.description?.replace(/^(Priority|Status) of the ticket\./, 'Only tickets with this $1.'),
		})),
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Sort By',
				name: 'sortBy',
				type: 'options',
				options: [
					{ name: 'Created At', value: 'created_at' },
					{ name: 'Updated At', value: 'updated_at' },
				],
				default: 'created_at',
				description: 'Field to order tickets by (the service default is Created At)',
			},
			{
				displayName: 'Sort Order',
				name: 'sortOrder',
				type: 'options',
				options: [
					{ name: 'Descending', value: 'desc' },
					{ name: 'Ascending', value: 'asc' },
				],
				default: 'desc',
				description: 'Order of the results (the service default is Descending, newest first)',
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['ticket'], operation: ['getAll'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = readLimit(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	// Only what the user set is sent: "where supported" in the spec means a parameter may be unknown.
	const qs: QueryInput = {
		status: resolveChoice(this, filters, 'status', itemIndex),
		priority: resolveChoice(this, filters, 'priority', itemIndex),
		sort_by: options.sortBy as string | undefined,
		sort: options.sortOrder as string | undefined,
	};
	const { items } = await paginate.call(this, { path: '/tickets', qs, limit, itemIndex });
	return items;
}
