import { updateDisplayOptions, type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport/apiRequest';
import { readId } from '../../helpers/readParameters';
import { idLocator } from '../common.descriptions';

const properties: INodeProperties[] = [idLocator('ticket', 'ticketId', 'searchTickets')];

export const description = updateDisplayOptions({ show: { resource: ['ticket'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const { id, path } = readId(this, 'ticketId', 'ticket', itemIndex);
	const response = await apiRequest.call(this, {
		method: 'GET',
		path: `/tickets/${path}`,
		itemIndex,
		context: { resource: 'ticket', id },
	});
	return [response.data as IDataObject];
}
