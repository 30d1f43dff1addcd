import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import type { RunShared } from '../../../shared/transport/apiRequest';
import { createOnce } from '../common/createOnce';
import { sameEmail, sameText, type CreatedKind } from '../common/findCreatedRecord';
import { checkEmail, readTexts, requireText } from '../../../shared/parameters/text';
import { parseCustomFields } from '../../../shared/parameters/customFields';
import { readTicketState } from '../../../shared/parameters/choice';
import { concurrencyOptions, customFieldsJson, fieldsCollection } from '../common/descriptions';
import { ticketStateFields } from '../../../shared/descriptions/ticketFields';

const properties: INodeProperties[] = [
	{
		displayName: 'Subject',
		name: 'subject',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Cannot log in',
		description: 'Short title of the ticket',
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		placeholder: 'e.g. Since this morning the login page shows an error',
		description: 'Text of the problem',
	},
	{
		displayName: 'Customer Email',
		name: 'customerEmail',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. name@email.com',
		description: 'E-mail address of the customer who raised the ticket',
	},
	fieldsCollection('create', [
		{
			displayName: 'Customer Name',
			name: 'customerName',
			type: 'string',
			default: '',
			placeholder: 'e.g. Nathan Smith',
		},
		customFieldsJson,
		...ticketStateFields('set'),
	]),
	concurrencyOptions,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['ticket'], operation: ['create'] } },
	properties,
);

export const concurrent = true;

/**
 * Helpdesk rules may change priority, status or tags at once; the
 * customer, subject and description they keep.
 */
export const createdTicket: CreatedKind = {
	noun: 'ticket',
	identifies: (sent, record) =>
		sameEmail(
			(record.customer as IDataObject | undefined)?.email,
			(sent.customer as IDataObject).email,
		) &&
		sameText(record.subject, sent.subject) &&
		sameText(record.description, sent.description),
};

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	shared: RunShared,
): Promise<IDataObject[]> {
	const subject = requireText(this, 'subject', 'Subject', itemIndex);
	const text = requireText(this, 'description', 'Description', itemIndex);
	const email = checkEmail(
		this,
		requireText(this, 'customerEmail', 'Customer Email', itemIndex),
		'Customer Email',
		itemIndex,
	);
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;

	const body: IDataObject = { ...parseCustomFields(this, fields.customFieldsJson, itemIndex) };
	body.subject = subject;
	body.description = text;
	const { customerName } = readTexts(this, fields, { customerName: 'Customer Name' }, itemIndex);
	body.customer = { email, ...(customerName ? { name: customerName } : {}) };
	const { priority, status } = readTicketState(this, fields, itemIndex);
	if (priority !== undefined) body.priority = priority;
	if (status !== undefined) body.status = status;

	return [
		await createOnce.call(
			this,
			{ path: '/tickets', listPath: '/tickets', body, itemIndex },
			createdTicket,
			shared,
		),
	];
}
