import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import type { RunShared } from '../../../shared/transport/apiRequest';
import { optionsCollection, timeoutOption } from '../../../shared/descriptions/optionsCollection';
import { concurrentRequestsOption, pagingFields } from '../common/descriptions';
import { getMany, readFromBothEndsOption } from '../common/getMany';

const properties: INodeProperties[] = [
	...pagingFields({ resource: ['customer'], operation: ['getAll'] }),
	optionsCollection([concurrentRequestsOption, readFromBothEndsOption, timeoutOption]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['customer'], operation: ['getAll'] } },
	properties,
);

export const concurrent = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	shared: RunShared,
): Promise<IDataObject[]> {
	return await getMany.call(this, itemIndex, { path: '/customers', ...shared });
}
