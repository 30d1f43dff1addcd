import { updateDisplayOptions, type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { paginate } from '../../transport/paginate';
import { readLimit } from '../../helpers/readParameters';
import { returnAllAndLimit } from '../common.descriptions';

const properties: INodeProperties[] = [...returnAllAndLimit({ resource: ['customer'], operation: ['getAll'] })];

export const description = updateDisplayOptions({ show: { resource: ['customer'], operation: ['getAll'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = readLimit(this, itemIndex);
	const { items } = await paginate.call(this, { path: '/customers', limit, itemIndex });
	return items;
}
