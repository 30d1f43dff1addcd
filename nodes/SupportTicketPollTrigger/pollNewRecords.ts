import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import type { PollSource } from './pollEvents';
import { loadPollState, savePollState, type Backlog, type PollState } from './pollState';
import { readSegment } from './readSegment';
import { advance, compareTimestamps, type Stamped, type Watermark } from './watermark';

/** More than this many unfinished stretches means polls cannot keep up; better to say so. */
const MAX_BACKLOGS = 50;

export interface PollSettings {
	source: PollSource;
	/** Identifies the event and filters, so changed settings start afresh. */
	query: string;
	emitExisting: boolean;
	maxPagesPerPoll: number;
}

/**
 * One poll: the records that appeared since the last poll, oldest first, each exactly once.
 * Reads newest-first from the top until it reaches what was seen before; if the page budget
 * runs out first, the rest is remembered as a backlog, which later polls read first. The first
 * poll only records the starting point, unless existing records are to be emitted.
 */
export async function pollNewRecords(this: IPollFunctions, settings: PollSettings): Promise<IDataObject[]> {
	const { source, query, maxPagesPerPoll } = settings;
	const staticData = this.getWorkflowStaticData('node');
	let state = loadPollState(staticData, query);

	if (!state && !settings.emitExisting) {
		const first = await readSegment.call(this, { source, until: null, maxPages: 1, startOnly: true });
		savePollState(staticData, { query, watermark: advance(null, first.items), backlogs: [] });
		return [];
	}
	state ??= { query, watermark: null, backlogs: [] };

	// Unfinished older stretches first, oldest first, so a backlog always makes progress; then the
	// newest records with what is left of the page budget (the next poll reads them otherwise).
	let budget = maxPagesPerPoll;
	const found: Stamped[] = [];
	const next: PollState = { query, watermark: state.watermark, backlogs: [] };
	for (const saved of state.backlogs) {
		// State from older versions has no `from`: the watermark bounds what was emitted (a record may repeat).
		const backlog: Backlog = { ...saved, from: saved.from === undefined ? state.watermark : saved.from };
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
				if (segment.resumeCursor) next.backlogs.push({ ...backlog, cursor: segment.resumeCursor, from: lowest(backlog.from, segment.items) });
				continue;
			}
		}
		if (budget <= 0) {
			next.backlogs.push(backlog);
			continue;
		}
		const again = await readSegment.call(this, { source, until: backlog.until, maxPages: budget });
		budget -= again.pages;
		const fresh = notYetEmitted(again.items, backlog.from);
		found.push(...fresh);
		if (again.resumeCursor) next.backlogs.push({ ...backlog, cursor: again.resumeCursor, from: lowest(backlog.from, fresh) });
	}
	if (budget > 0) {
		const top = await readSegment.call(this, { source, until: state.watermark, maxPages: budget });
		found.push(...top.items);
		next.watermark = advance(state.watermark, top.items);
		if (top.resumeCursor) {
			next.backlogs.push({ cursor: top.resumeCursor, until: state.watermark, from: lowest(null, top.items) ?? next.watermark });
		}
	}
	if (next.backlogs.length > MAX_BACKLOGS) {
		throw new NodeOperationError(this.getNode(), `More ${source.noun}s appear than a poll can read`, {
			description: `Each poll read ${maxPagesPerPoll} pages and still had more to read ${next.backlogs.length} times. Raise Max Pages per Poll, poll more often, or use the Support Ticket Trigger (webhooks).`,
		});
	}
	savePollState(staticData, next);
	return oldestFirstOncePerId(found).map((item) => item.record);
}

/** Chronological order; a record read twice in one poll (updated meanwhile) is emitted once, newest version. */
function oldestFirstOncePerId(items: Stamped[]): Stamped[] {
	const newest = new Map<string, Stamped>();
	// Reversed: among equal timestamps the service lists the newest first.
	for (const item of [...items].reverse()) {
		const known = newest.get(item.id);
		if (!known || compareTimestamps(item.at, known.at) > 0) newest.set(item.id, item);
	}
	return [...newest.values()].sort((a, b) => compareTimestamps(a.at, b.at));
}

/** Records below `from`, the oldest position already read (records at `from` not yet seen count too). */
function notYetEmitted(items: Stamped[], from: Watermark | null | undefined): Stamped[] {
	if (!from) return items;
	return items.filter((item) => {
		const order = compareTimestamps(item.at, from.at);
		return order < 0 || (order === 0 && !from.ids.includes(item.id));
	});
}

/** The oldest position among `start` and the records read (newest first), with the ids seen there. */
function lowest(start: Watermark | null | undefined, items: Stamped[]): Watermark | null {
	let low = start ? { at: start.at, ids: [...start.ids] } : null;
	for (const item of items) {
		const order = low ? compareTimestamps(item.at, low.at) : -1;
		if (order < 0 || !low) low = { at: item.at, ids: [item.id] };
		else if (order === 0 && !low.ids.includes(item.id)) low.ids.push(item.id);
	}
	return low;
}
