import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { listPages, MAX_PER_PAGE, type ListRequest } from '../../../shared/transport/paginate';
import { readPaging } from '../../../shared/parameters/readParameters';

export interface GetManyRequest extends Pick<ListRequest, 'path' | 'qs' | 'context' | 'limiter' | 'baseURL' | 'timeoutMs'> {
	/** Ends the list before the first item for which this is true; no further page is fetched. */
	endsBefore?: (item: IDataObject) => boolean;
}

/** The page(s) of one run as the node returns them in "One Page per Run" mode: easy to use in expressions. */
interface OnePage extends IDataObject {
	data: IDataObject[];
	count: number;
	has_more: boolean;
	/** Give this to the next run's Cursor; null on the last page. */
	next_cursor: string | null;
}

/** The list part of every Get Many: all items or up to a limit, or one run's page(s) as one item, as Pagination says. */
export async function getMany(this: IExecuteFunctions, itemIndex: number, request: GetManyRequest): Promise<IDataObject[]> {
	const paging = readPaging(this, itemIndex);
	const { path, qs, limiter, baseURL, timeoutMs, endsBefore } = request;
	if (paging.mode === 'onePage') {
		const data: IDataObject[] = [];
		let nextCursor: string | undefined;
		let pagesRead = 0;
		const pages = listPages.call(this, { path, qs, limiter, baseURL, timeoutMs, itemIndex, context: request.context, perPage: paging.pageSize, cursor: paging.cursor });
		for await (const page of pages) {
			const { items, ended } = cut(page.items, endsBefore);
			for (const item of items) data.push(item);
			// has_more false would tell the loop it is done while the list goes on.
			if (!ended && page.missingCursor) throw page.missingCursor;
			nextCursor = ended ? undefined : page.nextCursor;
			if (nextCursor === undefined || ++pagesRead >= paging.pages) break;
		}
		return [{ data, count: data.length, has_more: nextCursor !== undefined, next_cursor: nextCursor ?? null } satisfies OnePage];
	}
	const limit = paging.mode === 'limit' ? paging.limit : undefined;
	const perPage = limit === undefined ? MAX_PER_PAGE : Math.min(limit, MAX_PER_PAGE);
	const all: IDataObject[] = [];
	for await (const page of listPages.call(this, { path, qs, context: request.context, limiter, baseURL, timeoutMs, itemIndex, perPage })) {
		const { items, ended } = cut(page.items, endsBefore);
		for (const item of items) {
			all.push(item);
			if (limit !== undefined && all.length >= limit) return all;
		}
		if (ended) break;
	}
	return all;
}

/** The page's items before the first one `endsBefore` picks, and whether the list ends there. */
function cut(items: IDataObject[], endsBefore: GetManyRequest['endsBefore']): { items: IDataObject[]; ended: boolean } {
	const stop = endsBefore ? items.findIndex(endsBefore) : -1;
	return stop === -1 ? { items, ended: false } : { items: items.slice(0, stop), ended: true };
}
