import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readPaging } from '../../shared/readParameters';
import { fetchOnePage, paginate, type PageRequest } from '../../shared/paginate';

/**
 * The list part of every Get Many: all items or up to a limit (one item per result), or one page
 * at the given cursor (one item holding the page), as the Pagination parameter says.
 */
export async function getMany(this: IExecuteFunctions, itemIndex: number, request: Omit<PageRequest, 'limit' | 'itemIndex'>): Promise<IDataObject[]> {
	const paging = readPaging(this, itemIndex);
	if (paging.mode === 'onePage') {
		return [await fetchOnePage.call(this, { ...request, itemIndex }, paging.pageSize, paging.cursor)];
	}
	const limit = paging.mode === 'limit' ? paging.limit : undefined;
	const { items } = await paginate.call(this, { ...request, limit, itemIndex });
	return items;
}
