import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import type { RunShared } from '../../../shared/transport/apiRequest';
import { createOnce } from '../common/createOnce';
import { sameEmail, type CreatedKind } from '../common/findCreatedRecord';
import { checkEmail, readTexts, requireText } from '../../../shared/parameters/text';
import { parseCustomFields } from '../../../shared/parameters/customFields';
import { concurrencyOptions, customFieldsJson, fieldsCollection } from '../common/descriptions';

const properties: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. name@email.com',
		description: "The customer's e-mail address",
	},
	fieldsCollection('create', [
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
	{ show: { resource: ['customer'], operation: ['create'] } },
	properties,
);

export const concurrent = true;

/** A customer is found by e-mail (one customer per e-mail); automations may fill in its name. */
export const createdCustomer: CreatedKind = {
	noun: 'customer',
	identifies: (sent, record) => sameEmail(record.email, sent.email),
};

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	shared: RunShared,
): Promise<IDataObject[]> {
	const email = checkEmail(
		this,
		requireText(this, 'email', 'Email', itemIndex),
		'Email',
		itemIndex,
	);
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		...parseCustomFields(this, fields.customFieldsJson, itemIndex),
		email,
	};
	const { name } = readTexts(this, fields, { name: 'Name' }, itemIndex);
	if (name) body.name = name;
	return [
		await createOnce.call(
			this,
			{ path: '/customers', listPath: '/customers', body, itemIndex },
			createdCustomer,
			shared,
		),
	];
}
