import type { IDataObject } from 'n8n-workflow';

import type { Watermark } from './watermark';

/**
 * A stretch of older records a poll could not finish within its page budget: read on from
 * `cursor` until `until` (null: to the end) on later polls, so nothing is skipped. `from` is the
 * oldest position already read (its timestamp and the ids seen there): if the service rejects
 * the cursor (expired, or a restart with new cursor keys), the stretch is read again from the
 * newest record, and everything at or above `from` is skipped, so nothing is emitted twice.
 */
export interface Backlog {
	/** null: the cursor was rejected; read from the newest record down. */
	cursor: string | null;
	until: Watermark | null;
	/** Missing in state saved by older versions. */
	from?: Watermark | null;
}

/** Kept in the node's workflow static data, which n8n saves after each poll. */
export interface PollState {
	/** The event and filters the cursors were made for; another query starts afresh. */
	query: string;
	watermark: Watermark | null;
	backlogs: Backlog[];
}

const STATE_KEY = 'pollState';

export function loadPollState(staticData: IDataObject, query: string): PollState | undefined {
	const state = staticData[STATE_KEY] as PollState | undefined;
	if (!state || typeof state !== 'object' || state.query !== query) return undefined;
	return { query, watermark: state.watermark ?? null, backlogs: Array.isArray(state.backlogs) ? state.backlogs : [] };
}

export function savePollState(staticData: IDataObject, state: PollState): void {
	// A new object each time, so n8n notices the change and persists it.
	staticData[STATE_KEY] = JSON.parse(JSON.stringify(state)) as IDataObject;
}
