import type { IPollFunctions } from 'n8n-workflow';

import type { PollSource } from './pollEvents';
import type { Backlog } from './pollState';
import { readSegment } from './readSegment';
import { compareTimestamps, lowest, type Stamped, type Watermark } from './watermark';

export interface LegacyRead {
	found: Stamped[];
	backlogs: Backlog[];
	pages: number;
}

/**
 * Reads on the unfinished stretches saved by a version before the overlap window, as that
 * version did, oldest first, within the page budget: their records were never emitted.
 */
export async function readLegacyBacklogs(this: IPollFunctions, source: PollSource, saved: Backlog[], watermark: Watermark | null, maxPages: number): Promise<LegacyRead> {
	let budget = maxPages;
	const found: Stamped[] = [];
	const backlogs: Backlog[] = [];
	for (const stretch of saved) {
		// State from the oldest versions has no `from`: the watermark bounds what was emitted.
		const backlog: Backlog = { ...stretch, from: stretch.from === undefined ? watermark : stretch.from };
		if (budget > 0 && backlog.cursor !== null) {
			const segment = await readSegment.call(this, { source, cursor: backlog.cursor, until: backlog.until, maxPages: budget });
			budget -= segment.pages;
			if (segment.cursorRejected) {
				this.logger.warn(
					`Support Ticket Poll Trigger: the service rejected the saved page cursor of ${source.noun}s not emitted yet (it may have expired, or the service restarted). They are read again from the newest ${source.noun}, skipping those already emitted.`,
				);
				backlog.cursor = null;
			} else {
				found.push(...notYetEmitted(segment.items, backlog.from));
				if (segment.resumeCursor) backlogs.push({ ...backlog, cursor: segment.resumeCursor, from: lowest(backlog.from, segment.items) });
				continue;
			}
		}
		if (budget <= 0) {
			backlogs.push(backlog);
			continue;
		}
		const again = await readSegment.call(this, { source, until: backlog.until, maxPages: budget });
		budget -= again.pages;
		const fresh = notYetEmitted(again.items, backlog.from);
		found.push(...fresh);
		if (again.resumeCursor) backlogs.push({ ...backlog, cursor: again.resumeCursor, from: lowest(backlog.from, fresh) });
	}
	return { found, backlogs, pages: maxPages - budget };
}

/** Records below `from`, the oldest position already read (records at `from` not yet seen count too). */
function notYetEmitted(items: Stamped[], from: Watermark | null | undefined): Stamped[] {
	if (!from) return items;
	return items.filter((item) => {
		const order = compareTimestamps(item.at, from.at);
		return order < 0 || (order === 0 && !from.ids.includes(item.id));
	});
}
