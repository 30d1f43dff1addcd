import {
	NodeOperationError,
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import type { RunShared } from '../../../shared/transport/apiRequest';
import { optionsCollection, timeoutOption } from '../../../shared/descriptions/optionsCollection';
import { parseServiceTimestamp } from '../../../shared/parameters/serviceTimestamp';
import { readDateTime } from '../../../shared/parameters/dateTime';
import { readTexts } from '../../../shared/parameters/text';
import { readTicketState } from '../../../shared/parameters/choice';
import type { QueryInput } from '../../../shared/signing/serializeQuery';
import { concurrentRequestsOption, pagingFields } from '../common/descriptions';
import { moreInfo } from '../../../shared/descriptions/moreInfo';
import { ticketFilters } from '../../../shared/descriptions/ticketFields';
import { getMany, readFromBothEndsOption } from '../common/getMany';

const properties: INodeProperties[] = [
	...pagingFields({ resource: ['ticket'], operation: ['getAll'] }),
	ticketFilters(),
	optionsCollection([
		concurrentRequestsOption,
		{
			displayName: 'Created After',
			name: 'createdAfter',
			type: 'dateTime',
			default: '',
			description:
				'Only tickets created at or after this moment, e.g. the newest ' +
				'created_at you imported (write by ID: tickets of that instant ' +
				`come again). ${moreInfo('operations.md#created-after')}.`,
		},
		readFromBothEndsOption,
		{
			displayName: 'Sort By',
			name: 'sortBy',
			type: 'options',
			options: [
				{ name: 'Created At', value: 'created_at' },
				{ name: 'Updated At', value: 'updated_at' },
			],
			default: 'created_at',
			description: 'Field to order tickets by (the service default is Created At)',
		},
		{
			displayName: 'Sort Order',
			name: 'sortOrder',
			type: 'options',
			options: [
				{ name: 'Descending', value: 'desc' },
				{ name: 'Ascending', value: 'asc' },
			],
			default: 'desc',
			description: 'Order of the results (the service default is Descending, newest first)',
		},
		timeoutOption,
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['ticket'], operation: ['getAll'] } },
	properties,
);

export const concurrent = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	shared: RunShared,
): Promise<IDataObject[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	// Only what the user set is sent: "where supported"
	// (docs/api.md#paging) means a parameter may be unknown.
	const { sortBy, sortOrder } = readTexts(
		this,
		options,
		{ sortBy: 'Sort By', sortOrder: 'Sort Order' },
		itemIndex,
	);
	const qs: QueryInput = {
		...readTicketState(this, filters, itemIndex),
		sort_by: sortBy,
		sort: sortOrder,
	};
	// Picked in the field: the workflow's time zone, as in other n8n nodes; from an
	// expression: UTC, as a created_at fed back means.
	const typed = (this.getNode().parameters.options as IDataObject | undefined)?.createdAfter;
	const picked = typeof typed === 'string' && !typed.startsWith('=');
	const createdAfter = readDateTime(
		this,
		options.createdAfter,
		'Created After',
		itemIndex,
		picked ? this.getTimezone() : undefined,
	);
	if (createdAfter === undefined)
		return await getMany.call(this, itemIndex, { path: '/tickets', qs, ...shared });

	// Stopping at the first older ticket is right only when every later ticket is older still.
	const newestFirst =
		(qs.sort_by ?? 'created_at') === 'created_at' && (qs.sort ?? 'desc') === 'desc';
	if (!newestFirst) {
		throw new NodeOperationError(this.getNode(), 'Created After needs the newest-first order', {
			itemIndex,
			description:
				'Reading stops at the first older ticket: remove Sort By and Sort ' +
				'Order (or set Created At, Descending), or remove Created After.',
		});
	}
	// At or after: a workflow feeding back the newest created_at must not lose a
	// ticket created later in that same second.
	const endsBefore = (ticket: IDataObject) => {
		const createdAt = parseServiceTimestamp(ticket.created_at);
		if (createdAt === undefined) {
			throw new NodeOperationError(
				this.getNode(),
				`The service sent ticket ${String(ticket.id)} with a created_at ` +
					`Created After cannot read: ${JSON.stringify(ticket.created_at)}`,
				{
					itemIndex,
					description:
						'Created After reads ISO 8601 or Unix time in seconds or ' +
						'milliseconds: remove it to list the tickets without it.',
				},
			);
		}
		return createdAt < createdAfter;
	};
	return await getMany.call(this, itemIndex, { path: '/tickets', qs, endsBefore, ...shared });
}
