import { NodeApiError, type IDataObject, type JsonObject } from 'n8n-workflow';

import type { QueryInput } from '../../shared/serializeQuery';
import { apiRequest, type ApiContext } from './apiRequest';

export const MAX_PER_PAGE = 100;
/** Stops a service that keeps saying `has_more` forever: 100,000 pages of 100 is 10 million items. */
export const MAX_PAGES = 100_000;

export interface PageRequest {
	path: string;
	/** Filters and sort: sent byte-identical on every page, since the cursor is bound to them. */
	qs?: QueryInput;
	/** Stop once this many items are in hand; undefined returns all. */
	limit?: number;
	itemIndex?: number;
	context?: { resource?: string; id?: string };
}

export interface PageResult {
	items: IDataObject[];
	/** Calls made, for summaries and tests. */
	pages: number;
}

interface ListMeta {
	has_more?: unknown;
	next_cursor?: unknown;
}

/**
 * Follows `meta.next_cursor` while `meta.has_more`. With a limit it asks for
 * `per_page = min(limit, 100)` and stops as soon as the limit is reached, so it makes
 * ⌈limit/100⌉ calls at most; without one, `per_page = 100`. A failed page is retried by
 * apiRequest on its own, so a fault never restarts the traversal. A missing `meta` ends the
 * traversal (tolerant reader); a short or empty page with `has_more` goes on; a cursor seen
 * before stops with an error instead of looping.
 */
export async function paginate(this: ApiContext, request: PageRequest): Promise<PageResult> {
	const { limit } = request;
	const perPage = limit === undefined ? MAX_PER_PAGE : Math.min(limit, MAX_PER_PAGE);
	const items: IDataObject[] = [];
	const seenCursors = new Set<string>();
	let cursor: string | undefined;
	let pages = 0;

	for (;;) {
		if (pages >= MAX_PAGES) {
			throw new NodeApiError(this.getNode(), {} as JsonObject, {
				message: `Paging stopped after ${MAX_PAGES} pages while the service still reported more`,
				description: 'Use a Limit or filters to read fewer items at a time.',
				itemIndex: request.itemIndex,
			});
		}
		const qs: QueryInput = { per_page: perPage, ...request.qs };
		if (cursor !== undefined) qs.cursor = cursor;
		const response = await apiRequest.call(this, {
			method: 'GET',
			path: request.path,
			qs,
			itemIndex: request.itemIndex,
			context: request.context,
		});
		pages++;
		const data = Array.isArray(response.data) ? (response.data as IDataObject[]) : [];
		for (const item of data) {
			items.push(item);
			if (limit !== undefined && items.length >= limit) return { items, pages };
		}
		const meta = (response.meta ?? {}) as ListMeta;
		if (meta.has_more !== true || typeof meta.next_cursor !== 'string' || meta.next_cursor === '') break;
		if (seenCursors.has(meta.next_cursor)) {
			throw new NodeApiError(this.getNode(), response as JsonObject, {
				message: 'The service returned the same page cursor twice; paging stopped to avoid a loop',
				description: `${items.length} items were read before the repeat. This is a fault of the service; try again later.`,
				itemIndex: request.itemIndex,
			});
		}
		seenCursors.add(meta.next_cursor);
		cursor = meta.next_cursor;
	}
	return { items, pages };
}
