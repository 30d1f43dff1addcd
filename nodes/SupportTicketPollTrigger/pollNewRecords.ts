import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import type { PollSource } from './pollEvents';
import { loadPollState, savePollState, type PollState } from './pollState';
import { readSegment } from './readSegment';
import { advance, compareTimestamps, type Stamped } from './watermark';

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
		const first = await readSegment.call(this, source, undefined, null, 1);
		savePollState(staticData, { query, watermark: advance(null, first.items), backlogs: [] });
		return [];
	}
	state ??= { query, watermark: null, backlogs: [] };

	// Unfinished older stretches first, oldest first, so a backlog always makes progress; then the
	// newest records with what is left of the page budget (the next poll reads them otherwise).
	let budget = maxPagesPerPoll;
	const found: Stamped[] = [];
	const next: PollState = { query, watermark: state.watermark, backlogs: [] };
	for (const backlog of state.backlogs) {
		if (budget <= 0) {
			next.backlogs.push(backlog);
			continue;
		}
		const segment = await readSegment.call(this, source, backlog.cursor, backlog.until, budget);
		budget -= segment.pages;
		found.push(...segment.items);
		if (segment.resumeCursor) next.backlogs.push({ cursor: segment.resumeCursor, until: backlog.until });
	}
	if (budget > 0) {
		const top = await readSegment.call(this, source, undefined, state.watermark, budget);
		found.push(...top.items);
		next.watermark = advance(state.watermark, top.items);
		if (top.resumeCursor) next.backlogs.push({ cursor: top.resumeCursor, until: state.watermark });
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
