import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { parseServiceTimestamp } from '../shared/descriptions/serviceTimestamp';
import { fingerprint } from './fingerprint';
import { readLegacyBacklogs } from './legacyBacklogs';
import type { PollSource } from './pollEvents';
import { loadFeedState, savePollState, type FeedState, type Pass } from './pollState';
import { readPass } from './readPass';
import { isSeen, type Stamped } from './watermark';

export interface PollSettings {
	source: PollSource;
	/** Identifies the event and filters, so changed settings start afresh. */
	query: string;
	emitExisting: boolean;
	maxPagesPerPoll: number;
	/** How far below the newest timestamp seen (or n8n's clock, if older) every poll reads again. */
	overlapMs: number;
	/** Updated Ticket: a record is emitted again when its state changed. New events: once per id. */
	compareStates: boolean;
}

/**
 * One poll: the records that are new or changed since the last poll, oldest first, each change
 * once. Every poll reads newest-first from the top down to the overlap window below the newest
 * timestamp seen, and emits each record whose fingerprint differs from the one noted for it
 * (New events: whose id was not noted), so a change within the same second, a record committed
 * late or a service clock set back inside the window are caught, and an unchanged record is never
 * emitted twice. The window's fingerprints are kept in the workflow's static data. When the page
 * budget runs out first, the pass goes on from its cursor at the next poll. The first poll only
 * notes the window, unless existing records are to be emitted.
 */
export async function pollNewRecords(this: IPollFunctions, settings: PollSettings): Promise<IDataObject[]> {
	const { source, query, overlapMs } = settings;
	const staticData = this.getWorkflowStaticData('node');
	// n8n's clock bounds the window too: a service clock that ran ahead and was set back must not hide what follows.
	const nowMs = Date.now();
	const loaded = loadFeedState(staticData, query, parseServiceTimestamp);
	const state: FeedState = loaded ?? {
		version: 2,
		kind: 'feed',
		query,
		newest: null,
		window: [],
		pass: settings.emitExisting
			? { cursor: null, low: null, silent: false, position: null }
			: { cursor: null, low: null, lowFromNewest: true, silent: true, position: null },
	};
	const seen = new Map(state.window.map(([id, at, print]) => [id, { at, print }]));
	const windowLow = () => (state.newest === null ? -Infinity : Math.min(state.newest, nowMs) - overlapMs);
	const emitted = new Map<string, { item: Stamped; atMs: number }>();

	const consider = (item: Stamped, atMs: number, pass: Pass | null) => {
		const print = settings.compareStates ? fingerprint(item.record) : '';
		state.newest = Math.max(state.newest ?? atMs, atMs);
		let known = seen.get(item.id)?.print === print;
		// Read before the pass's cursor was rejected: emitted then, and no longer noted below the window.
		if (!known && pass?.restartedBelow !== undefined) known = atMs > pass.restartedBelow && atMs < windowLow();
		// Migrated state: what the older version emitted, until the first pass has noted the window.
		if (!known && pass && state.legacy) known = isSeen(item, state.legacy.watermark);
		if (!known && !pass?.silent) {
			emitted.delete(item.id);
			emitted.set(item.id, { item, atMs });
		}
		seen.set(item.id, { at: atMs, print });
	};

	let budget = settings.maxPagesPerPoll;
	if (state.legacy && state.legacy.backlogs.length > 0) {
		const legacy = await readLegacyBacklogs.call(this, source, state.legacy.backlogs, state.legacy.watermark, budget);
		budget -= legacy.pages;
		for (const item of legacy.found) consider(item, parseServiceTimestamp(item.at) ?? 0, null);
		state.legacy.backlogs = legacy.backlogs;
	}
	// A pass left unfinished by the last poll goes on first; one more from the top may follow with the pages left.
	let started = loaded ? 0 : 1;
	while (budget > 0 && !(state.legacy && state.legacy.backlogs.length > 0)) {
		if (!state.pass) {
			if (started > 0) break;
			started++;
			state.pass = { cursor: null, low: state.newest === null ? null : windowLow(), silent: false, position: null };
		}
		const pass = state.pass;
		const read = await readPass.call(this, source, pass, budget, nowMs, overlapMs, (item, atMs) => consider(item, atMs, pass));
		budget -= read.pages;
		if (read.cursorRejected) {
			this.logger.warn(
				`Support Ticket Poll Trigger: the service rejected the saved page cursor (it may have expired, or the service restarted). The ${source.noun}s are read again from the newest, skipping those already emitted.`,
			);
			continue;
		}
		if (!read.done) break;
		state.pass = null;
		state.legacy = undefined;
	}

	state.window = prune(seen, windowLow(), state.pass);
	savePollState(staticData, state);
	// Reversed first: among equal timestamps the service lists the newest first.
	return [...emitted.values()]
		.reverse()
		.sort((a, b) => a.atMs - b.atMs)
		.map(({ item }) => item.record);
}

/**
 * The entries the next polls need: those inside the window, and, while a pass is unfinished,
 * those from its low end to where it reads on (it will meet them again).
 */
function prune(seen: Map<string, { at: number; print: string }>, windowLow: number, pass: Pass | null): FeedState['window'] {
	const top = pass ? (pass.position ?? pass.restartedBelow ?? Infinity) : -Infinity;
	const bottom = pass?.low ?? -Infinity;
	const kept: FeedState['window'] = [];
	for (const [id, { at, print }] of seen) if (at >= windowLow || (at <= top && at >= bottom)) kept.push([id, at, print]);
	return kept;
}
