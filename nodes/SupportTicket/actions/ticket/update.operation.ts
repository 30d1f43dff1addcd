import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { apiRequest, type RunShared } from '../../../shared/transport/apiRequest';
import { assertSomethingToUpdate } from '../../../shared/parameters/updateFields';
import { parseCustomFields } from '../../../shared/parameters/customFields';
import { readId } from '../../../shared/parameters/id';
import { readTexts } from '../../../shared/parameters/text';
import { readTicketState } from '../../../shared/parameters/choice';
import {
	concurrencyOptions,
	customFieldsJson,
	fieldsCollection,
	idLocator,
} from '../common/descriptions';
import { ticketStateFields } from '../../../shared/descriptions/ticketFields';

const properties: INodeProperties[] = [
	idLocator('ticket', 'ticketId', 'searchTickets'),
	fieldsCollection('update', [
		{
			displayName: 'Subject',
			name: 'subject',
			type: 'string',
			default: '',
			placeholder: 'e.g. Cannot log in',
		},
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			default: '',
			typeOptions: { rows: 4 },
		},
		customFieldsJson,
		...ticketStateFields('set'),
	]),
	concurrencyOptions,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['ticket'], operation: ['update'] } },
	properties,
);

export const concurrent = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	shared: RunShared,
): Promise<IDataObject[]> {
	const { id, path } = readId(this, 'ticketId', 'ticket', itemIndex);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		...parseCustomFields(this, fields.customFieldsJson, itemIndex),
		...readTexts(this, fields, { subject: 'Subject', description: 'Description' }, itemIndex),
	};
	const { priority, status } = readTicketState(this, fields, itemIndex);
	if (priority !== undefined) body.priority = priority;
	if (status !== undefined) body.status = status;
	assertSomethingToUpdate(this, body, itemIndex);
	const response = await apiRequest.call(this, {
		method: 'PATCH',
		path: `/tickets/${path}`,
		body,
		itemIndex,
		...shared,
		context: { resource: 'ticket', id },
	});
	return [response.data as IDataObject];
}
