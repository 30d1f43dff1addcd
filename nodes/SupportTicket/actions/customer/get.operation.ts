import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { apiRequest, type RunShared } from '../../../shared/transport/apiRequest';
import { readId } from '../../../shared/parameters/id';
import { concurrencyOptions, idLocator } from '../common/descriptions';

const properties: INodeProperties[] = [
	idLocator('customer', 'customerId', 'searchCustomers'),
	concurrencyOptions,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['customer'], operation: ['get'] } },
	properties,
);

export const concurrent = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	shared: RunShared,
): Promise<IDataObject[]> {
	const { id, path } = readId(this, 'customerId', 'customer', itemIndex);
	const response = await apiRequest.call(this, {
		method: 'GET',
		path: `/customers/${path}`,
		itemIndex,
		...shared,
		context: { resource: 'customer', id },
	});
	return [response.data as IDataObject];
}
