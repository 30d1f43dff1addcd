import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { apiRequest, type RunShared } from '../../../shared/transport/apiRequest';
import { assertSomethingToUpdate } from '../../../shared/parameters/updateFields';
import { checkEmail, readTexts } from '../../../shared/parameters/text';
import { parseCustomFields } from '../../../shared/parameters/customFields';
import { readId } from '../../../shared/parameters/id';
import {
	concurrencyOptions,
	customFieldsJson,
	fieldsCollection,
	idLocator,
} from '../common/descriptions';

const properties: INodeProperties[] = [
	idLocator('customer', 'customerId', 'searchCustomers'),
	fieldsCollection('update', [
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			default: '',
			placeholder: 'e.g. name@email.com',
		},
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			placeholder: 'e.g. Nathan Smith',
		},
		customFieldsJson,
	]),
	concurrencyOptions,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['customer'], operation: ['update'] } },
	properties,
);

export const concurrent = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	shared: RunShared,
): Promise<IDataObject[]> {
	const { id, path } = readId(this, 'customerId', 'customer', itemIndex);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		...parseCustomFields(this, fields.customFieldsJson, itemIndex),
		...readTexts(this, fields, { email: 'Email', name: 'Name' }, itemIndex),
	};
	if (typeof body.email === 'string') body.email = checkEmail(this, body.email, 'Email', itemIndex);
	assertSomethingToUpdate(this, body, itemIndex);
	const response = await apiRequest.call(this, {
		method: 'PATCH',
		path: `/customers/${path}`,
		body,
		itemIndex,
		...shared,
		context: { resource: 'customer', id },
	});
	return [response.data as IDataObject];
}
