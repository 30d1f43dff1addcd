import { NodeApiError, type IDataObject, type IPollFunctions, type JsonObject } from 'n8n-workflow';

import { apiRequest } from '../SupportTicket/transport/apiRequest';
import { MAX_PER_PAGE } from '../SupportTicket/transport/paginate';
import type { QueryInput } from '../shared/serializeQuery';
import type { PollSource } from './pollEvents';
import { compareTimestamps, isSeen, type Stamped, stampOf, type Watermark } from './watermark';

export interface Segment {
	/** Records not seen before, newest first as the service listed them. */
	items: Stamped[];
	pages: number;
	/** Set when the page budget ran out first: where to read on next time. */
	resumeCursor?: string;
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
		const response = await apiRequest.call(this, { method: 'GET', path: source.path, qs });
		pages++;
		const data = Array.isArray(response.data) ? (response.data as IDataObject[]) : [];
		for (const record of data) {
			const item = stamp.call(this, record, source);
			if (until && compareTimestamps(item.at, until.at) < 0) return { items, pages };
			if (!isSeen(item, until)) items.push(item);
		}
		const meta = (response.meta ?? {}) as { has_more?: unknown; next_cursor?: unknown };
		if (meta.has_more !== true || typeof meta.next_cursor !== 'string' || meta.next_cursor === '') {
			return { items, pages };
		}
		if (meta.next_cursor === next) {
			throw new NodeApiError(this.getNode(), response as JsonObject, {
				message: 'The service returned the same page cursor twice; polling stopped to avoid a loop',
			});
		}
		if (pages >= maxPages) return { items, pages, resumeCursor: meta.next_cursor };
		next = meta.next_cursor;
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
