import { updateDisplayOptions, type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { paginate } from '../../transport/paginate';
import { readId, readLimit } from '../../helpers/readParameters';
import { idLocator, returnAllAndLimit } from '../common.descriptions';

const properties: INodeProperties[] = [
	idLocator('ticket', 'ticketId', 'searchTickets'),
	...returnAllAndLimit({ resource: ['reply'], operation: ['getAll'] }),
];

export const description = updateDisplayOptions({ show: { resource: ['reply'], operation: ['getAll'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const { id, path } = readId(this, 'ticketId', 'ticket', itemIndex);
	const limit = readLimit(this, itemIndex);
	const { items } = await paginate.call(this, {
		path: `/tickets/${path}/replies`,
		limit,
		itemIndex,
		context: { resource: 'ticket', id },
	});
	return items;
}
