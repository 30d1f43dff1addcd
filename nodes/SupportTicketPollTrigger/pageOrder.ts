import { NodeApiError, type IPollFunctions, type JsonObject } from 'n8n-workflow';

import type { PollSource } from './pollEvents';
import { compareTimestamps, type Stamped } from './watermark';

/**
 * The poll trigger stops reading at the first record older than what it has seen, so it relies
 * on the list being newest first by `timestampField`. A service that ignores the sort (the spec
 * says "where supported") would make it miss records without a sign: a page out of order fails
 * the poll instead.
 */
export function outOfOrder(ctx: IPollFunctions, source: PollSource, newer: { id: string; at: string }, older: { id: string; at: string }): NodeApiError {
	const field = source.timestampField;
	const alternative =
		field === 'updated_at'
			? 'Use the Support Ticket Trigger (webhooks) for changes, or the event New Ticket, which needs only the default order.'
			: 'Use the Support Ticket Trigger (webhooks) instead.';
	return new NodeApiError(ctx.getNode(), {} as JsonObject, {
		message: `The service does not sort ${source.noun}s by ${field}: the list is out of order`,
		description: `The poll trigger asked for ${source.noun}s newest first by ${field}, but the service listed ${source.noun} ${older.id} (${field} ${older.at}) after ${newer.id} (${newer.at}). Reading on would miss ${source.noun}s without any error, so nothing was emitted. ${alternative}`,
	});
}

/**
 * Checks a whole page (also the records below where the poll stops reading: a page visibly out
 * of order must not pass because the poll stopped early), and its first record against the last
 * one read before it.
 */
export function checkPageOrder(ctx: IPollFunctions, source: PollSource, items: Stamped[], before: { id: string; at: string } | undefined): void {
	let previous = before;
	for (const item of items) {
		if (previous && compareTimestamps(item.at, previous.at) > 0) throw outOfOrder(ctx, source, previous, item);
		previous = item;
	}
}
