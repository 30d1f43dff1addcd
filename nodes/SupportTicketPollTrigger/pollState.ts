import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * A record in the overlap window: id, timestamp (epoch ms), fingerprint ('' where only
 * the id matters). Arrays keep the state small.
 */
export type WindowEntry = [id: string, at: number, fingerprint: string];

/**
 * One read from the newest record down to `low`, possibly over several polls (Max Pages per Poll).
 */
export interface Pass {
	/** Where to read on; null: from the newest record. */
	cursor: string | null;
	/** Epoch ms: the pass ends at the first record older than this; null: at the end of the list. */
	low: number | null;
	/** The first poll: the low end is set from the newest record read. */
	lowFromNewest?: boolean;
	/** The first poll without Emit Existing: note the records, do not emit them. */
	silent: boolean;
	/** Epoch ms of the last record read: the next one must not be newer (the order check). */
	position: number | null;
	/**
	 * The saved cursor was refused and the pass restarted from the top:
	 * records between here and the window were read.
	 */
	restartedBelow?: number;
}

/** New Ticket, Updated Ticket, New Customer: lists newest first by a timestamp. */
export interface FeedState {
	kind: 'feed';
	/** The event and filters the state was made for; another query starts afresh. */
	query: string;
	/** Epoch ms of the newest record ever read (service's clock); null while none was. */
	newest: number | null;
	/**
	 * n8n's clock at the last poll: the next window starts below it,
	 * so a service clock set back hides nothing.
	 */
	polledAt: number | null;
	window: WindowEntry[];
	pass: Pass | null;
}

/** [id, fingerprint, number of the full scan that last saw it]. */
export type KnownEntry = [id: string, fingerprint: string, scan: number];

/** Updated Customer: full scans of a list with no usable order, compared by fingerprint. */
export interface ScanState {
	kind: 'scan';
	query: string;
	/** Where the current scan reads on; null: the next scan starts at the top. */
	cursor: string | null;
	scan: number;
	/**
	 * The first scan without Emit Existing: notes what exists,
	 * emits only what changed after activation.
	 */
	silent: boolean;
	/**
	 * Activation on the service's clock, less a margin: in the silent
	 * scan, records changed since then are emitted.
	 */
	silentSince?: number;
	known: KnownEntry[];
}

const STATE_KEY = 'pollState';

/**
 * The saved state of this kind and query, read defensively
 * (static data can be edited through n8n's API).
 */
export function loadState<K extends (FeedState | ScanState)['kind']>(
	staticData: IDataObject,
	kind: K,
	query: string,
): Extract<FeedState | ScanState, { kind: K }> | undefined {
	const saved = staticData[STATE_KEY] as FeedState | ScanState | undefined;
	if (!saved || typeof saved !== 'object' || saved.kind !== kind || saved.query !== query)
		return undefined;
	if (saved.kind === 'scan')
		return {
			...saved,
			scan: Number(saved.scan) || 1,
			known: Array.isArray(saved.known) ? saved.known : [],
		} as Extract<FeedState | ScanState, { kind: K }>;
	return {
		...saved,
		newest: typeof saved.newest === 'number' ? saved.newest : null,
		polledAt: typeof saved.polledAt === 'number' ? saved.polledAt : null,
		window: Array.isArray(saved.window) ? saved.window : [],
		pass: saved.pass && typeof saved.pass === 'object' ? saved.pass : null,
	} as Extract<FeedState | ScanState, { kind: K }>;
}

export function saveState(staticData: IDataObject, state: FeedState | ScanState): void {
	// A new object each time, so n8n notices the change and persists it.
	staticData[STATE_KEY] = JSON.parse(JSON.stringify(state)) as IDataObject;
}

/**
 * 72 bits of SHA-256 of the record's JSON with sorted keys: the same state
 * gives the same print whatever the key order.
 */
export function fingerprint(record: unknown): string {
	return createHash('sha256').update(canonicalJson(record)).digest('base64url').slice(0, 12);
}

function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const entries = Object.keys(value)
			.sort()
			.filter((key) => (value as Record<string, unknown>)[key] !== undefined)
			.map(
				(key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
			);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}
