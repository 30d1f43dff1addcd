import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import type { RunShared } from '../../../shared/transport/apiRequest';
import { createOnce } from '../common/createOnce';
import { sameText, type CreatedKind } from '../common/findCreatedRecord';
import { parseCustomFields } from '../../../shared/parameters/customFields';
import { readId } from '../../../shared/parameters/id';
import { requireText } from '../../../shared/parameters/text';
import {
	concurrencyOptions,
	customFieldsJson,
	fieldsCollection,
	idLocator,
} from '../common/descriptions';

const properties: INodeProperties[] = [
	idLocator('ticket', 'ticketId', 'searchTickets'),
	{
		displayName: 'Body',
		name: 'body',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		placeholder: 'e.g. Thanks for reporting this, we are looking into it',
		description: 'Text of the reply',
	},
	fieldsCollection('create', [customFieldsJson]),
	concurrencyOptions,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['reply'], operation: ['create'] } },
	properties,
);

export const concurrent = true;

/** A reply is found among its ticket's replies by its text. */
export const createdReply: CreatedKind = {
	noun: 'reply',
	identifies: (sent, record) => sameText(record.body, sent.body),
};

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	shared: RunShared,
): Promise<IDataObject[]> {
	const { id, path } = readId(this, 'ticketId', 'ticket', itemIndex);
	const text = requireText(this, 'body', 'Body', itemIndex);
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		...parseCustomFields(this, fields.customFieldsJson, itemIndex),
		body: text,
	};
	const replies = `/tickets/${path}/replies`;
	return [
		await createOnce.call(
			this,
			{ path: replies, listPath: replies, body, itemIndex, context: { resource: 'ticket', id } },
			createdReply,
			shared,
		),
	];
}
