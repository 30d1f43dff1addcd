import { NodeApiError, type IDataObject, type IPollFunctions, type JsonObject } from 'n8n-workflow';

import { REJECTED_CURSOR_MESSAGE } from '../shared/transport/describeApiError';
import { listPages, MAX_PER_PAGE } from '../shared/transport/paginate';
import { toNodeError } from '../shared/transport/toNodeError';
import { checkPageOrder } from './pageOrder';
import type { PollSource } from './pollEvents';
import { compareTimestamps, isSeen, type Stamped, stampOf, type Watermark } from './watermark';

export interface Segment {
	/** Records not seen before, newest first as the service listed them. */
	items: Stamped[];
	pages: number;
	/** Set when the page budget ran out first: where to read on next time. */
	resumeCursor?: string;
	/** The service rejected the `cursor` this segment started at: nothing was read. */
	cursorRejected?: boolean;
}

/**
 * A 400 to a request that carried a saved cursor, or another answer describeApiError reads as a
 * rejected cursor: the cursor expired or its key changed.
 */
export function isRejectedCursor(error: unknown): boolean {
	const { name, httpCode, message } = error as { name?: unknown; httpCode?: unknown; message?: unknown };
	return name === 'NodeApiError' && (httpCode === '400' || message === REJECTED_CURSOR_MESSAGE);
}

export interface SegmentRequest {
	source: PollSource;
	/** Where to start: a saved `resumeCursor`; undefined for the newest records. */
	cursor?: string;
	/** The watermark: reading stops at the first record older than it; null reads to the end. */
	until: Watermark | null;
	maxPages: number;
	perPage?: number;
	/**
	 * Only the records are wanted, not where to read on after `maxPages` (the first poll, which
	 * notes where to start; a manual run, which shows the newest): a last page with more to come
	 * but no cursor is then no fault.
	 */
	startOnly?: boolean;
}

/**
 * Reads newest-first from `cursor` (the first page when undefined) until the records reach the
 * watermark, the list ends, or `maxPages` pages were read. Records that share the watermark's
 * timestamp are all looked at, since the service's order among equal timestamps is not given.
 */
export async function readSegment(this: IPollFunctions, request: SegmentRequest): Promise<Segment> {
	const { source, cursor, until, maxPages, perPage = MAX_PER_PAGE } = request;
	const items: Stamped[] = [];
	let pages = 0;
	let previous: Stamped | undefined;
	try {
		for await (const page of listPages.call(this, { path: source.path, qs: source.qs, perPage, cursor, context: { poll: true } })) {
			pages++;
			const stamped = page.items.map((record) => stamp.call(this, record, source));
			checkPageOrder(this, source, stamped, previous);
			previous = stamped.at(-1) ?? previous;
			for (const item of stamped) {
				if (until && compareTimestamps(item.at, until.at) < 0) return { items, pages };
				if (!isSeen(item, until)) items.push(item);
			}
			if (pages >= maxPages) {
				if (page.nextCursor !== undefined) return { items, pages, resumeCursor: page.nextCursor };
				// Else a page that said more without a cursor fails the poll at the next step, saving nothing.
				if (request.startOnly) return { items, pages };
			}
		}
	} catch (error) {
		// Only the cursor this segment was given can be stale; a later one was issued just now.
		if (pages === 0 && cursor !== undefined && isRejectedCursor(error)) return { items, pages: 1, cursorRejected: true };
		throw toNodeError(this.getNode(), error, 0);
	}
	return { items, pages };
}

export function stamp(this: IPollFunctions, record: IDataObject, source: PollSource): Stamped {
	const stamped = stampOf(record, source.timestampField);
	if ('problem' in stamped) {
		throw new NodeApiError(this.getNode(), record as JsonObject, {
			message: `The service listed a ${source.noun} ${stamped.problem}`,
			description: `The poll trigger needs each ${source.noun}'s id and ${source.timestampField} (ISO 8601, without a zone read as UTC, or Unix time in seconds or milliseconds) to know what is new. Use the Support Ticket Trigger (webhooks) instead if the service does not send them.`,
		});
	}
	return stamped;
}
