import { NodeApiError, type IDataObject, type IPollFunctions, type JsonObject } from 'n8n-workflow';

import { toNodeError } from '../shared/toNodeError';
import { apiRequest } from '../shared/apiRequest';
import { MAX_PER_PAGE, readNextCursor } from '../shared/paginate';
import type { QueryInput } from '../shared/serializeQuery';
import type { PollSource } from './pollEvents';
import { compareTimestamps, isSeen, type Stamped, stampOf, type Watermark } from './watermark';

export interface Segment {
	/** Records not seen before, newest first as the service listed them. */
	items: Stamped[];
	pages: number;
	/** Set when the page budget ran out first: where to read on next time. */
	resumeCursor?: string;
	/** The service answered 400 to the `cursor` this segment started at: nothing was read. */
	cursorRejected?: boolean;
}

/** A 400 to a request that carried a saved cursor: the cursor expired or its key changed. */
function isRejectedCursor(error: unknown): boolean {
	const { name, httpCode } = error as { name?: unknown; httpCode?: unknown };
	return name === 'NodeApiError' && httpCode === '400';
}

/**
 * Reads newest-first from `cursor` (the first page when undefined) until the records reach the
 * watermark, the list ends, or `maxPages` pages were read. Records that share the watermark's
 * timestamp are all looked at, since the service's order among equal timestamps is not given.
 */
export async function readSegment(
	this: IPollFunctions,
	source: PollSource,
	cursor: string | undefined,
	until: Watermark | null,
	maxPages: number,
	perPage = MAX_PER_PAGE,
): Promise<Segment> {
	const items: Stamped[] = [];
	let pages = 0;
	for (let next = cursor; ; ) {
		const qs: QueryInput = { per_page: perPage, ...source.qs };
		if (next !== undefined) qs.cursor = next;
		let response: IDataObject;
		try {
			response = await apiRequest.call(this, { method: 'GET', path: source.path, qs, context: { poll: true } });
		} catch (error) {
			// Only the cursor this segment was given can be stale; a later one was issued just now.
			if (pages === 0 && cursor !== undefined && isRejectedCursor(error)) return { items, pages: 1, cursorRejected: true };
			throw toNodeError(this.getNode(), error, 0);
		}
		pages++;
		const data = Array.isArray(response.data) ? (response.data as IDataObject[]) : [];
		for (const record of data) {
			const item = stamp.call(this, record, source);
			if (until && compareTimestamps(item.at, until.at) < 0) return { items, pages };
			if (!isSeen(item, until)) items.push(item);
		}
		const nextCursor = readNextCursor(response.meta);
		if (nextCursor === undefined) return { items, pages };
		if (nextCursor === next) {
			throw new NodeApiError(this.getNode(), response as JsonObject, {
				message: 'The service returned the same page cursor twice; polling stopped to avoid a loop',
			});
		}
		if (pages >= maxPages) return { items, pages, resumeCursor: nextCursor };
		next = nextCursor;
	}
}

function stamp(this: IPollFunctions, record: IDataObject, source: PollSource): Stamped {
	const stamped = stampOf(record, source.timestampField);
	if ('problem' in stamped) {
		throw new NodeApiError(this.getNode(), record as JsonObject, {
			message: `The service listed a ${source.noun} ${stamped.problem}`,
			description: `The poll trigger needs each ${source.noun}'s id and ${source.timestampField} (ISO 8601, without a zone read as UTC, or Unix time in seconds or milliseconds) to know what is new. Use the Support Ticket Trigger (webhooks) instead if the service does not send them.`,
		});
	}
	return stamped;
}
