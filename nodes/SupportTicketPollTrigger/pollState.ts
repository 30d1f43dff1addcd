import type { IDataObject } from 'n8n-workflow';

import type { Watermark } from './watermark';

/**
 * A stretch of older records saved by versions before the overlap window (state without
 * `version`): read on from `cursor` until `until` (null: to the end). `from` is the oldest
 * position already read (its timestamp and the ids seen there): if the service rejects the
 * cursor, the stretch is read again from the newest record, skipping everything at or above it.
 */
export interface Backlog {
	/** null: the cursor was rejected; read from the newest record down. */
	cursor: string | null;
	until: Watermark | null;
	/** Missing in state saved by the oldest versions. */
	from?: Watermark | null;
}

/**
 * A record emitted or noted recently: its id, its timestamp (epoch ms) and the fingerprint of
 * the state emitted ('' for New Ticket / New Customer, where only the id matters). Arrays, not
 * objects, to keep the saved state small: about 45 bytes each as JSON.
 */
export type WindowEntry = [id: string, at: number, fingerprint: string];

/**
 * One read from the newest record down to `low`, possibly over several polls (Max Pages per Poll).
 */
export interface Pass {
	/** Where to read on; null: from the newest record (not started yet, or the cursor was rejected). */
	cursor: string | null;
	/** Epoch ms: the pass ends at the first record older than this; null: at the end of the list. */
	low: number | null;
	/** Set the low end from the newest record read (the first poll: the window below it). */
	lowFromNewest?: boolean;
	/** The first poll without Emit Existing: note the window's records without emitting them. */
	silent: boolean;
	/** Epoch ms of the last record read: the next one must not be newer (the order check). */
	position: number | null;
	/** The pass was restarted from the top at this position: records above it (and below the window) were read. */
	restartedBelow?: number;
}

/** Updated Ticket, New Ticket, New Customer: lists sorted newest first by `timestampField`. */
export interface FeedState {
	version: 2;
	kind: 'feed';
	/** The event and filters the cursors were made for; another query starts afresh. */
	query: string;
	/** Epoch ms of the newest record ever read; null while none was. */
	newest: number | null;
	/** The records inside the overlap window (and, during a pass, those it has yet to re-read). */
	window: WindowEntry[];
	pass: Pass | null;
	/**
	 * Saved by a version before the overlap window: its watermark (every record at or below it,
	 * outside the backlogs, was emitted) and its unfinished stretches, read first. Dropped after
	 * the first complete pass.
	 */
	legacy?: { watermark: Watermark | null; backlogs: Backlog[] };
}

/** [id, fingerprint, number of the full scan that last saw it]. */
export type KnownEntry = [id: string, fingerprint: string, scan: number];

/** Updated Customer: full scans of a list with no usable order, compared by fingerprint. */
export interface ScanState {
	version: 2;
	kind: 'scan';
	query: string;
	/** Where the current scan reads on; null: the next scan starts at the top. */
	cursor: string | null;
	/** The current scan's number; entries not seen by a finished scan are dropped. */
	scan: number;
	/** The first scan without Emit Existing: note, do not emit. */
	silent: boolean;
	known: KnownEntry[];
}

const STATE_KEY = 'pollState';

/** Static data of versions before the overlap window: `{ query, watermark, backlogs }`. */
interface LegacyState {
	query: string;
	watermark?: Watermark | null;
	backlogs?: Backlog[];
}

export function loadFeedState(staticData: IDataObject, query: string, parse: (at: string) => number | undefined): FeedState | undefined {
	const saved = staticData[STATE_KEY] as (FeedState | ScanState | LegacyState) | undefined;
	if (!saved || typeof saved !== 'object' || saved.query !== query) return undefined;
	if ('version' in saved) {
		if (saved.kind !== 'feed') return undefined;
		// Read defensively: static data can be edited by hand (n8n's API, an import).
		return {
			...saved,
			newest: typeof saved.newest === 'number' ? saved.newest : null,
			window: Array.isArray(saved.window) ? saved.window : [],
			pass: saved.pass && typeof saved.pass === 'object' ? saved.pass : null,
		};
	}
	// Migrated, never started afresh: the old watermark keeps the place until the window is filled.
	const watermark = saved.watermark ?? null;
	return {
		version: 2,
		kind: 'feed',
		query,
		newest: watermark ? (parse(watermark.at) ?? null) : null,
		window: [],
		pass: null,
		legacy: { watermark, backlogs: Array.isArray(saved.backlogs) ? saved.backlogs : [] },
	};
}

export function loadScanState(staticData: IDataObject, query: string): ScanState | undefined {
	const saved = staticData[STATE_KEY] as ScanState | undefined;
	if (!saved || typeof saved !== 'object' || saved.query !== query || saved.kind !== 'scan') return undefined;
	return { ...saved, scan: Number(saved.scan) || 1, known: Array.isArray(saved.known) ? saved.known : [] };
}

export function savePollState(staticData: IDataObject, state: FeedState | ScanState): void {
	// A new object each time, so n8n notices the change and persists it.
	staticData[STATE_KEY] = JSON.parse(JSON.stringify(state)) as IDataObject;
}
