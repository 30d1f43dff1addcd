import type { IDataObject } from 'n8n-workflow';

import type { Watermark } from './watermark';

/**
 * A stretch of older records a poll could not finish within its page budget: read on from
 * `cursor` until `until` (null: to the end) on later polls, so nothing is skipped.
 */
export interface Backlog {
	cursor: string;
	until: Watermark | null;
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
