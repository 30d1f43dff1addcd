import { NodeApiError, type IDataObject, type JsonObject } from 'n8n-workflow';

import { apiRequest, readServiceBaseUrl, type ApiFunctions, type RequestTrace } from './apiRequest';
import type { RunActivity } from './runActivity';
import type { RequestLimiter } from './concurrency';
import { pageText, type ErrorContext } from './describeApiError';
import type { QueryInput } from '../signing/serializeQuery';

export const MAX_PER_PAGE = 100;
/**
 * Stops a service that keeps saying `has_more` forever: 100,000 pages of 100 is 10 million items.
 */
const MAX_PAGES = 100_000;

/** One list of the service, read page by page: Get Many, the list search and the poll trigger. */
export interface ListRequest {
	path: string;
	/** Filters and sort: byte-identical on every page, since the cursor is bound to them. */
	qs?: QueryInput;
	perPage: number;
	/** Where to start: a `next_cursor` given out earlier; undefined for the first page. */
	cursor?: string;
	itemIndex?: number;
	context?: ErrorContext;
	limiter?: RequestLimiter;
	baseURL?: string;
	timeoutMs?: number;
	trace?: RequestTrace;
	activity?: RunActivity;
}

/**
 * The error of a request whose page cursor the service
 * refused (expired, or made by another instance).
 */
export function isCursorRejected(error: unknown): error is NodeApiError & { cursorRejected: true } {
	return (error as { cursorRejected?: unknown } | null)?.cursorRejected === true;
}

export interface ListPage {
	items: IDataObject[];
	/** The cursor of the page after this one; undefined on the last page. */
	nextCursor: string | undefined;
	/**
	 * Set when the service said more items exist but gave no cursor: asking for the next page
	 * throws it, and a caller that reports where the list goes on (one page per run) must
	 * throw it rather than call this the last page.
	 */
	missingCursor?: NodeApiError;
}

type NextPage = { cursor: string } | { end: true } | { cursorMissing: true };

/**
 * What `meta` says about the next page, read tolerantly (docs/api.md#paging: `has_more` as
 * `true`, `"true"` or `1`). But `has_more` without a usable cursor is not the end: that
 * would make an incomplete list look complete.
 */
function readNextPage(meta: unknown): NextPage {
	if (!meta || typeof meta !== 'object') return { end: true };
	const { has_more: flag, next_cursor: cursor } = meta as IDataObject;
	const usable = typeof cursor === 'string' && cursor !== '';
	if (flag === undefined || flag === null) return usable ? { cursor } : { end: true };
	const more =
		typeof flag === 'string'
			? ['true', '1'].includes(flag.trim().toLowerCase())
			: flag === true || flag === 1;
	if (!more) return { end: true };
	return usable ? { cursor } : { cursorMissing: true };
}

function missingCursor(
	ctx: ApiFunctions,
	itemIndex: number | undefined,
	readSoFar: number,
): NodeApiError {
	return new NodeApiError(ctx.getNode(), {} as JsonObject, {
		message: 'The service reported more items but gave no cursor to read them',
		description:
			`Reading stopped after ${readSoFar} ${readSoFar === 1 ? 'item' : 'items'} rather ` +
			'than return an incomplete list. This is a fault of the service; try again later.',
		itemIndex,
	});
}

/** What a list entry is, when it is not an object. */
function entryKind(entry: unknown): string | undefined {
	if (entry === null) return 'null';
	if (Array.isArray(entry)) return 'an array';
	if (typeof entry !== 'object')
		return typeof entry === 'string' ? 'a string' : `a ${typeof entry}`;
	return undefined;
}

/** Every entry of a page must be a record: anything else would break the items of the run. */
function checkEntries(
	ctx: ApiFunctions,
	items: unknown[],
	itemIndex: number | undefined,
	context: ErrorContext,
): IDataObject[] {
	for (let i = 0; i < items.length; i++) {
		const kind = entryKind(items[i]);
		if (kind === undefined) continue;
		throw new NodeApiError(ctx.getNode(), {} as JsonObject, {
			message: `The service sent a list entry that is not an object: entry ${i + 1} is ${kind}`,
			description:
				`${pageText(context)}Check the Base URL in the credential: it must be the address ` +
				'of the Support Ticket API; if it is, the service is at fault.',
			itemIndex,
		});
	}
	return items as IDataObject[];
}

function repeatedCursor(
	ctx: ApiFunctions,
	itemIndex: number | undefined,
	readSoFar: number,
): NodeApiError {
	return new NodeApiError(ctx.getNode(), {} as JsonObject, {
		message: 'The service returned the same page cursor twice; reading stopped to avoid a loop',
		description:
			`${readSoFar} items were read before the repeat. ` +
			'This is a fault of the service; try again later.',
		itemIndex,
	});
}

/**
 * The pages of one list, in order, as the caller asks for them (stop by leaving the loop);
 * a repeated cursor is an error, not a loop.
 */
export async function* listPages(
	this: ApiFunctions,
	request: ListRequest,
): AsyncGenerator<ListPage, void> {
	const baseURL = request.baseURL ?? (await readServiceBaseUrl.call(this, request.itemIndex));
	const seenCursors = new Set<string>(request.cursor === undefined ? [] : [request.cursor]);
	let cursor = request.cursor;
	let readSoFar = 0;
	for (let pages = 0; ; pages++) {
		if (pages >= MAX_PAGES) {
			throw new NodeApiError(this.getNode(), {} as JsonObject, {
				message: `Paging stopped after ${MAX_PAGES} pages while the service still reported more`,
				description:
					'Use a Limit or filters to read fewer items at a time, or Pagination "One Page per Run".',
				itemIndex: request.itemIndex,
			});
		}
		const qs: QueryInput = { per_page: request.perPage, ...request.qs };
		if (cursor !== undefined) qs.cursor = cursor;
		const { itemIndex, limiter, timeoutMs, trace } = request;
		const cursorFrom = cursor === undefined ? undefined : pages === 0 ? 'caller' : 'previousPage';
		const context: ErrorContext = {
			...request.context,
			page: pages + 1,
			itemsBefore: readSoFar,
			...(cursorFrom ? { cursorFrom } : {}),
		};
		const response = await apiRequest.call(this, {
			method: 'GET',
			path: request.path,
			qs,
			itemIndex,
			context,
			limiter,
			baseURL,
			timeoutMs,
			answer: 'list',
			trace,
			activity: request.activity,
		});
		const items = checkEntries(this, response.data as unknown[], itemIndex, context);
		const next = readNextPage(response.meta);
		readSoFar += items.length;
		if ('cursorMissing' in next) {
			const error = missingCursor(this, itemIndex, readSoFar);
			yield { items, nextCursor: undefined, missingCursor: error };
			throw error;
		}
		const nextCursor = 'cursor' in next ? next.cursor : undefined;
		if (nextCursor !== undefined && seenCursors.has(nextCursor))
			throw repeatedCursor(this, itemIndex, readSoFar);
		yield { items, nextCursor };
		if (nextCursor === undefined) return;
		seenCursors.add(nextCursor);
		cursor = nextCursor;
	}
}
