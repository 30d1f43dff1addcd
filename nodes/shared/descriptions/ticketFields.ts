import type { INodeProperties } from 'n8n-workflow';

import { CUSTOM_VALUE } from '../parameters/choice';

const priorityOptions = [
	{ name: 'Low', value: 'low' },
	{ name: 'Normal', value: 'normal' },
	{ name: 'High', value: 'high' },
	{ name: 'Urgent', value: 'urgent' },
	{ name: 'Custom', value: CUSTOM_VALUE, description: 'Type a value the service accepts' },
];

const statusOptions = [
	{ name: 'Open', value: 'open' },
	{ name: 'Pending', value: 'pending' },
	{ name: 'On Hold', value: 'on_hold' },
	{ name: 'Solved', value: 'solved' },
	{ name: 'Closed', value: 'closed' },
	{ name: 'Custom', value: CUSTOM_VALUE, description: 'Type a value the service accepts' },
];

/**
 * Priority and status, each a list plus a free-text field:
 * the service may know more values than listed.
 */
export function ticketStateFields(use: 'set' | 'filter'): INodeProperties[] {
	const describe = (label: string) =>
		`${use === 'set' ? `${label} of the ticket.` : `Only tickets with this ${label}.`} ` +
		`For a value not listed, choose Custom and fill in Custom ${label}.`;
	return [
		{
			displayName: 'Priority',
			name: 'priority',
			type: 'options',
			options: priorityOptions,
			default: 'normal',
			description: describe('Priority'),
		},
		{
			displayName: 'Custom Priority',
			name: 'customPriority',
			type: 'string',
			default: '',
			placeholder: 'e.g. critical',
			description: 'Used when Priority is Custom',
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: statusOptions,
			default: 'open',
			description: describe('Status'),
		},
		{
			displayName: 'Custom Status',
			name: 'customStatus',
			type: 'string',
			default: '',
			placeholder: 'e.g. waiting_on_vendor',
			description: 'Used when Status is Custom',
		},
	];
}

/** The Filters collection of a ticket list (Get Many and the poll trigger): status and priority. */
export function ticketFilters(displayOptions?: INodeProperties['displayOptions']): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		...(displayOptions ? { displayOptions } : {}),
		options: ticketStateFields('filter'),
	};
}
