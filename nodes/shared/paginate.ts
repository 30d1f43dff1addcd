import { NodeApiError, type IDataObject, type JsonObject } from 'n8n-workflow';

import type { QueryInput } from './serializeQuery';
import { apiRequest, type ApiContext } from './apiRequest';
import type { RequestLimiter } from './concurrency';
import type { ErrorContext } from './describeApiError';

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
	context?: ErrorContext;
	/** Paces the calls when items are processed concurrently (see concurrency.ts). */
	limiter?: RequestLimiter;
	/**
	 * Ends the list early: the first item for which this is true, and everything after it, are
	 * left out and no further page is fetched (e.g. the first ticket not newer than a date, in
	 * newest-first order).
	 */
	until?: (item: IDataObject) => boolean;
}

export interface PageResult {
	items: IDataObject[];
	/** Calls made, for summaries and tests. */
	pages: number;
}

/** One page as the node returns it in "One Page per Run" mode: easy to use in expressions. */
export interface OnePage extends IDataObject {
	data: IDataObject[];
	count: number;
	has_more: boolean;
	/** Give this to the next run's Cursor; null on the last page. */
	next_cursor: string | null;
}

/**
 * The cursor of the next page, or undefined on the last page. Read tolerantly: `has_more` may
 * come as `true`, `"true"` or `1` (a service that sends text must not end paging silently); a
 * cursor without any `has_more` is followed; `false`, `"false"`, 0 or no cursor end the list.
 */
export function readNextCursor(meta: unknown): string | undefined {
	if (!meta || typeof meta !== 'object') return undefined;
	const { has_more: flag, next_cursor: cursor } = meta as IDataObject;
	if (typeof cursor !== 'string' || cursor === '') return undefined;
	if (flag === undefined || flag === null) return cursor;
	const more = typeof flag === 'string' ? ['true', '1'].includes(flag.trim().toLowerCase()) : flag === true || flag === 1;
	return more ? cursor : undefined;
}

/**
 * One list call: the page's items (cut at `until`), whether another page follows, and its cursor.
 * A missing `meta` means last page (tolerant reader); `has_more` without a usable cursor too.
 */
async function requestPage(
	ctx: ApiContext,
	request: PageRequest,
	perPage: number,
	cursor: string | undefined,
	context: ErrorContext | undefined,
): Promise<OnePage> {
	const qs: QueryInput = { per_page: perPage, ...request.qs };
	if (cursor !== undefined) qs.cursor = cursor;
	const response = await apiRequest.call(ctx, { method: 'GET', path: request.path, qs, itemIndex: request.itemIndex, context, limiter: request.limiter });
	let data = Array.isArray(response.data) ? (response.data as IDataObject[]) : [];
	const nextCursor = readNextCursor(response.meta);
	let hasMore = nextCursor !== undefined;
	if (request.until) {
		const stop = data.findIndex(request.until);
		if (stop !== -1) {
			data = data.slice(0, stop);
			hasMore = false;
		}
	}
	return { data, count: data.length, has_more: hasMore, next_cursor: hasMore ? (nextCursor ?? null) : null };
}

function repeatedCursor(ctx: ApiContext, request: PageRequest, readSoFar: number): NodeApiError {
	return new NodeApiError(ctx.getNode(), {} as JsonObject, {
		message: 'The service returned the same page cursor twice; paging stopped to avoid a loop',
		description: `${readSoFar} items were read before the repeat. This is a fault of the service; try again later.`,
		itemIndex: request.itemIndex,
	});
}

/**
 * Follows `meta.next_cursor` while `meta.has_more`. With a limit it asks for
 * `per_page = min(limit, 100)` and stops as soon as the limit is reached, so it makes
 * ⌈limit/100⌉ calls at most; without one, `per_page = 100`. A failed page is retried by
 * apiRequest on its own, so a fault never restarts the traversal. A short or empty page with
 * `has_more` goes on; a cursor seen before stops with an error instead of looping.
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
				description: 'Use a Limit or filters to read fewer items at a time, or Pagination "One Page per Run".',
				itemIndex: request.itemIndex,
			});
		}
		const page = await requestPage(this, request, perPage, cursor, request.context);
		pages++;
		for (const item of page.data) {
			items.push(item);
			if (limit !== undefined && items.length >= limit) return { items, pages };
		}
		if (!page.has_more || page.next_cursor === null) break;
		if (seenCursors.has(page.next_cursor)) throw repeatedCursor(this, request, items.length);
		seenCursors.add(page.next_cursor);
		cursor = page.next_cursor;
	}
	return { items, pages };
}

/**
 * Exactly one list call, continuing at `cursor` (the previous page's `next_cursor`; undefined for
 * the first page). Holds one page in memory, whatever the size of the list, so a workflow can
 * loop over any number of items page by page.
 */
export async function fetchOnePage(
	this: ApiContext,
	request: PageRequest,
	pageSize: number,
	cursor: string | undefined,
): Promise<OnePage> {
	const context = { ...request.context, cursorFromParameter: cursor !== undefined };
	const page = await requestPage(this, request, pageSize, cursor, context);
	// A service answering with the cursor it was given would make the workflow's loop endless.
	if (page.has_more && page.next_cursor === cursor) throw repeatedCursor(this, request, page.count);
	return page;
}
