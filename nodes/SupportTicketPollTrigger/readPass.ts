import type { IPollFunctions } from 'n8n-workflow';

import { listPages, MAX_PER_PAGE } from '../shared/transport/paginate';
import { parseServiceTimestamp } from '../shared/descriptions/serviceTimestamp';
import { toNodeError } from '../shared/transport/toNodeError';
import { checkPageOrder } from './pageOrder';
import type { PollSource } from './pollEvents';
import type { Pass } from './pollState';
import { isRejectedCursor, stamp } from './readSegment';
import type { Stamped } from './watermark';

export interface PassRead {
	pages: number;
	/** The pass reached its low end or the end of the list. */
	done: boolean;
	/** The service rejected the pass's saved cursor (the pass now starts again from the top). */
	cursorRejected?: boolean;
}

/**
 * Reads a pass on (from its cursor, or from the newest record) for at most `maxPages` pages,
 * handing each record to `take` with its timestamp in epoch ms, until a record older than the
 * pass's low end or the end of the list. Checks that no record is newer than the one before it,
 * also across pages and polls. Updates `pass` (cursor, position, low) as it goes.
 */
export async function readPass(
	this: IPollFunctions,
	source: PollSource,
	pass: Pass,
	maxPages: number,
	nowMs: number,
	overlapMs: number,
	take: (item: Stamped, atMs: number) => void,
): Promise<PassRead> {
	const cursor = pass.cursor ?? undefined;
	let pages = 0;
	let previous: Stamped | undefined;
	try {
		for await (const page of listPages.call(this, { path: source.path, qs: source.qs, perPage: MAX_PER_PAGE, cursor, context: { poll: true } })) {
			pages++;
			const stamped = page.items.map((record) => stamp.call(this, record, source));
			const before = previous ?? (pass.position === null ? undefined : { id: 'the last one the previous poll read', at: new Date(pass.position).toISOString() });
			checkPageOrder(this, source, stamped, before);
			for (const item of stamped) {
				const atMs = parseServiceTimestamp(item.at) as number;
				if (pass.lowFromNewest) {
					// The first poll: the window below the newest record (or below n8n's clock, if the service's runs ahead).
					pass.low = Math.min(atMs, nowMs) - overlapMs;
					pass.lowFromNewest = undefined;
				}
				if (pass.low !== null && atMs < pass.low) return { pages, done: true };
				take(item, atMs);
				pass.position = atMs;
				previous = item;
			}
			if (pages >= maxPages && page.nextCursor !== undefined) {
				pass.cursor = page.nextCursor;
				return { pages, done: false };
			}
			// Else the list ends here, or it said more without a cursor: listPages throws for that next.
		}
	} catch (error) {
		// Only the saved cursor can be stale; a later one was issued just now.
		if (pages === 0 && cursor !== undefined && isRejectedCursor(error)) {
			pass.restartedBelow = Math.min(pass.restartedBelow ?? Infinity, pass.position ?? Infinity);
			if (!Number.isFinite(pass.restartedBelow)) pass.restartedBelow = undefined;
			pass.cursor = null;
			pass.position = null;
			return { pages: 1, done: false, cursorRejected: true };
		}
		throw toNodeError(this.getNode(), error, 0);
	}
	return { pages, done: true };
}
