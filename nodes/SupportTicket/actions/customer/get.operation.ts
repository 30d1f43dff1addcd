import { updateDisplayOptions, type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport/apiRequest';
import { readId } from '../../helpers/readParameters';
import { idLocator } from '../common.descriptions';

const properties: INodeProperties[] = [idLocator('customer', 'customerId', 'searchCustomers')];

export const description = updateDisplayOptions({ show: { resource: ['customer'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const { id, path } = readId(this, 'customerId', 'customer', itemIndex);
	const response = await apiRequest.call(this, {
		method: 'GET',
		path: `/customers/${path}`,
		itemIndex,
		context: { resource: 'customer', id },
	});
	return [response.data as IDataObject];
}
