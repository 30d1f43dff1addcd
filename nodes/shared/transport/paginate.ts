import { NodeApiError, type IDataObject, type JsonObject } from 'n8n-workflow';

import { apiRequest, readServiceBaseUrl, type ApiFunctions, type RequestTrace } from './apiRequest';
import type { RequestLimiter } from './concurrency';
import type { ErrorContext } from './describeApiError';
import type { QueryInput } from '../signing/serializeQuery';

export const MAX_PER_PAGE = 100;
/** Stops a service that keeps saying `has_more` forever: 100,000 pages of 100 is 10 million items. */
const MAX_PAGES = 100_000;

/** One list of the service, read page by page: Get Many, the list search and the poll trigger. */
export interface ListRequest {
	path: string;
	/** Filters and sort: sent byte-identical on every page, since the cursor is bound to them. */
	qs?: QueryInput;
	perPage: number;
	/** Where to start: a `next_cursor` given out earlier; undefined for the first page. */
	cursor?: string;
	itemIndex?: number;
	context?: ErrorContext;
	/** Paces the calls when items are processed concurrently (see concurrency.ts). */
	limiter?: RequestLimiter;
	/** The credential's Base URL when the caller has read it already; read once per list otherwise. */
	baseURL?: string;
	/** Options → Timeout of the item, per page request; apiRequest's default when unset. */
	timeoutMs?: number;
	/** Filled in from every page's answer (e.g. the service's clock). */
	trace?: RequestTrace;
}

/** The error of a request whose page cursor the service refused (expired, or made by another instance). */
export function isCursorRejected(error: unknown): error is NodeApiError & { cursorRejected: true } {
	return (error as { cursorRejected?: unknown } | null)?.cursorRejected === true;
}

export interface ListPage {
	items: IDataObject[];
	/** The cursor of the page after this one; undefined on the last page. */
	nextCursor: string | undefined;
	/**
	 * Set when the service said more items exist but gave no cursor for them: the list cannot be
	 * read on. Asking for the next page throws it; a caller that stops on this page because it
	 * has what it needs (a limit reached) never sees it; one that reports where the list goes on
	 * (one page per run, the list search) must throw it rather than call this the last page.
	 */
	missingCursor?: NodeApiError;
}

type NextPage = { cursor: string } | { end: true } | { cursorMissing: true };

/**
 * What `meta` says about the next page. Read tolerantly, since services differ in details the
 * spec leaves open (docs/api.md#paging): `has_more` may come as `true`, `"true"` or `1` (text must not end paging
 * silently); a cursor without any `has_more` is followed; `false`, `"false"`, 0, no cursor
 * without `has_more`, or no `meta` end the list. But `has_more` true with no usable cursor
 * (null, left out, "" or not text) is not read as the end: that would make an incomplete list
 * look complete.
 */
function readNextPage(meta: unknown): NextPage {
	if (!meta || typeof meta !== 'object') return { end: true };
	const { has_more: flag, next_cursor: cursor } = meta as IDataObject;
	const usable = typeof cursor === 'string' && cursor !== '';
	if (flag === undefined || flag === null) return usable ? { cursor } : { end: true };
	const more = typeof flag === 'string' ? ['true', '1'].includes(flag.trim().toLowerCase()) : flag === true || flag === 1;
	if (!more) return { end: true };
	return usable ? { cursor } : { cursorMissing: true };
}

function missingCursor(ctx: ApiFunctions, itemIndex: number | undefined, readSoFar: number): NodeApiError {
	return new NodeApiError(ctx.getNode(), {} as JsonObject, {
		message: 'The service reported more items but gave no cursor to read them',
		description: `${readSoFar} ${readSoFar === 1 ? 'item was' : 'items were'} read before. The rest of the list cannot be read without the cursor of the next page, so the list would be incomplete. This is a fault of the service; try again later.`,
		itemIndex,
	});
}

/** What a list entry is, when it is not an object: for the message. */
function entryKind(entry: unknown): string | undefined {
	if (entry === null) return 'null';
	if (Array.isArray(entry)) return 'an array';
	if (typeof entry !== 'object') return typeof entry === 'string' ? 'a string' : `a ${typeof entry}`;
	return undefined;
}

/** Every entry of a page must be an object (a record); anything else would break the items of the run. */
function checkEntries(ctx: ApiFunctions, items: unknown[], itemIndex: number | undefined, page: number, readSoFar: number): IDataObject[] {
	for (let i = 0; i < items.length; i++) {
		const kind = entryKind(items[i]);
		if (kind === undefined) continue;
		const where = page === 1 ? 'Page 1 of the list' : `Page ${page} of the list, after ${readSoFar} items`;
		throw new NodeApiError(ctx.getNode(), {} as JsonObject, {
			message: `The service sent a list entry that is not an object: entry ${i + 1} is ${kind}`,
			description: `${where}. Every entry of a list must be a record (a JSON object). This is a fault of the service, or the Base URL points at something else than the Support Ticket API.`,
			itemIndex,
		});
	}
	return items as IDataObject[];
}

function repeatedCursor(ctx: ApiFunctions, itemIndex: number | undefined, readSoFar: number): NodeApiError {
	return new NodeApiError(ctx.getNode(), {} as JsonObject, {
		message: 'The service returned the same page cursor twice; reading stopped to avoid a loop',
		description: `${readSoFar} items were read before the repeat. This is a fault of the service; try again later.`,
		itemIndex,
	});
}

/**
 * The pages of one list, in order, as the caller asks for them (stop by leaving the loop). The
 * rules every list follows: the next page is `meta.next_cursor` while `meta.has_more`; a short or
 * empty page with more to come goes on; a cursor given out before (or the one started from) is
 * an error instead of a loop; more to come without a cursor is an error once the caller asks for
 * the next page (see ListPage.missingCursor). A failed page is retried by apiRequest on its own,
 * so a fault never restarts the traversal. The credential's Base URL is read once for all pages.
 */
export async function* listPages(this: ApiFunctions, request: ListRequest): AsyncGenerator<ListPage, void> {
	const baseURL = request.baseURL ?? (await readServiceBaseUrl.call(this, request.itemIndex));
	const seenCursors = new Set<string>(request.cursor === undefined ? [] : [request.cursor]);
	let cursor = request.cursor;
	let readSoFar = 0;
	for (let pages = 0; ; pages++) {
		if (pages >= MAX_PAGES) {
			throw new NodeApiError(this.getNode(), {} as JsonObject, {
				message: `Paging stopped after ${MAX_PAGES} pages while the service still reported more`,
				description: 'Use a Limit or filters to read fewer items at a time, or Pagination "One Page per Run".',
				itemIndex: request.itemIndex,
			});
		}
		const qs: QueryInput = { per_page: request.perPage, ...request.qs };
		if (cursor !== undefined) qs.cursor = cursor;
		const { itemIndex, limiter, timeoutMs, trace } = request;
		// Tells a rejected cursor (not only a 400: see describeApiError) from other answers; names the page in errors.
		const context = { ...request.context, page: pages + 1, itemsBefore: readSoFar, ...(cursor === undefined ? {} : { cursorSent: true }) };
		const response = await apiRequest.call(this, { method: 'GET', path: request.path, qs, itemIndex, context, limiter, baseURL, timeoutMs, answer: 'list', trace });
		// apiRequest answers a list only with a `data` array.
		const items = checkEntries(this, response.data as unknown[], itemIndex, pages + 1, readSoFar);
		const next = readNextPage(response.meta);
		readSoFar += items.length;
		if ('cursorMissing' in next) {
			const error = missingCursor(this, itemIndex, readSoFar);
			yield { items, nextCursor: undefined, missingCursor: error };
			throw error;
		}
		const nextCursor = 'cursor' in next ? next.cursor : undefined;
		if (nextCursor !== undefined && seenCursors.has(nextCursor)) throw repeatedCursor(this, itemIndex, readSoFar);
		yield { items, nextCursor };
		if (nextCursor === undefined) return;
		seenCursors.add(nextCursor);
		cursor = nextCursor;
	}
}
