import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import type { RunShared } from '../../../shared/transport/apiRequest';
import { readId } from '../../../shared/parameters/id';
import { concurrentRequestsOption, idLocator, pagingFields } from '../common/descriptions';
import { optionsCollection, timeoutOption } from '../../../shared/descriptions/optionsCollection';
import { getMany, readFromBothEndsOption } from '../common/getMany';

const properties: INodeProperties[] = [
	idLocator('ticket', 'ticketId', 'searchTickets'),
	...pagingFields({ resource: ['reply'], operation: ['getAll'] }),
	optionsCollection([concurrentRequestsOption, readFromBothEndsOption, timeoutOption]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['reply'], operation: ['getAll'] } },
	properties,
);

export const concurrent = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	shared: RunShared,
): Promise<IDataObject[]> {
	const { id, path } = readId(this, 'ticketId', 'ticket', itemIndex);
	return await getMany.call(this, itemIndex, {
		path: `/tickets/${path}/replies`,
		context: { resource: 'ticket', id },
		...shared,
	});
}
