import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { RequestTrace } from '../shared/transport/apiRequest';
import { parseServiceTimestamp } from '../shared/parameters/serviceTimestamp';
import type { PollSource } from './pollProperties';
import {
	type FeedState,
	fingerprint,
	loadState,
	type Pass,
	saveState,
	type ScanState,
} from './pollState';
import { checkOrder, readPages, recordId, stamp, type Stamped } from './readPages';

export interface FeedSettings {
	source: PollSource;
	/** Identifies the event and filters, so changed settings start afresh. */
	query: string;
	emitExisting: boolean;
	maxPagesPerPoll: number;
	/**
	 * How far below the newest timestamp seen (or the last
	 * poll's time, if older) every poll reads again.
	 */
	overlapMs: number;
	/** Updated Ticket: a record comes again when its state changed. New events: once per id. */
	compareStates: boolean;
}

/**
 * New Ticket, Updated Ticket, New Customer: reads newest first down to the overlap
 * window, emits what the fingerprints say is new, oldest first. A pass cut short by
 * Max Pages per Poll goes on at the next poll.
 */
export async function pollFeed(
	this: IPollFunctions,
	settings: FeedSettings,
): Promise<IDataObject[]> {
	const { source, query, overlapMs } = settings;
	const staticData = this.getWorkflowStaticData('node');
	const nowMs = Date.now();
	const loaded = loadState(staticData, 'feed', query);
	const state: FeedState = loaded ?? {
		kind: 'feed',
		query,
		newest: null,
		polledAt: null,
		window: [],
		pass: {
			cursor: null,
			low: null,
			silent: !settings.emitExisting,
			position: null,
			...(settings.emitExisting ? {} : { lowFromNewest: true }),
		},
	};
	// Below the newest record, or below n8n's clock at `anchor` when the
	// service's clock ran ahead and was set back.
	const windowLow = (anchor: number) =>
		state.newest === null ? -Infinity : Math.min(state.newest, anchor) - overlapMs;
	const low = windowLow(state.polledAt ?? nowMs);
	const seen = new Map(state.window.map(([id, at, print]) => [id, { at, print }]));
	const emitted = new Map<string, Stamped>();

	const consider = (item: Stamped, pass: Pass) => {
		const print = settings.compareStates ? fingerprint(item.record) : '';
		state.newest = Math.max(state.newest ?? item.atMs, item.atMs);
		// Read before the saved cursor was refused: emitted then, and no longer noted below the window.
		const known =
			seen.get(item.id)?.print === print ||
			(pass.restartedBelow !== undefined && item.atMs > pass.restartedBelow && item.atMs < low);
		if (!known && !pass.silent) {
			emitted.delete(item.id);
			emitted.set(item.id, item);
		}
		seen.set(item.id, { at: item.atMs, print });
	};

	let budget = settings.maxPagesPerPoll;
	// Reads the pass on with the pages left, again from the top after a refused
	// cursor; state.pass is null once it is done.
	const readOn = async () => {
		while (state.pass && budget > 0) {
			const pass = state.pass;
			const read = await readPass.call(this, source, pass, budget, nowMs, overlapMs, (item) =>
				consider(item, pass),
			);
			budget -= read.pages;
			if (read.done) state.pass = null;
			else if (!read.restarted) return;
		}
	};
	// A pass left unfinished goes on first; one more from the top may follow with the
	// pages left (a first poll's pass is that one).
	await readOn();
	if (loaded && !state.pass && budget > 0) {
		state.pass = {
			cursor: null,
			low: state.newest === null ? null : low,
			silent: false,
			position: null,
		};
		await readOn();
	}

	state.polledAt = nowMs;
	state.window = keptEntries(seen, windowLow(nowMs), state.pass);
	saveState(staticData, state);
	// Reversed first: among equal timestamps the service lists the newest first.
	return [...emitted.values()]
		.reverse()
		.sort((a, b) => a.atMs - b.atMs)
		.map((item) => item.record);
}

/**
 * Reads a pass on for at most `maxPages` pages, keeping its cursor
 * and position; a refused cursor restarts it.
 */
async function readPass(
	this: IPollFunctions,
	source: PollSource,
	pass: Pass,
	maxPages: number,
	nowMs: number,
	overlapMs: number,
	take: (item: Stamped) => void,
): Promise<{ pages: number; done: boolean; restarted?: boolean }> {
	let pages = 0;
	let previous =
		pass.position === null
			? undefined
			: { id: 'the last one the previous poll read', atMs: pass.position };
	for await (const page of readPages.call(this, source, { cursor: pass.cursor })) {
		if (page === 'cursorRejected') {
			pass.restartedBelow = Math.min(pass.restartedBelow ?? Infinity, pass.position ?? Infinity);
			if (!Number.isFinite(pass.restartedBelow)) pass.restartedBelow = undefined;
			pass.cursor = null;
			pass.position = null;
			return { pages: 1, done: false, restarted: true };
		}
		pages++;
		// The whole page is checked, also below where the pass stops: a
		// page visibly out of order must not pass.
		const stamped = page.items.map((record) => stamp(this, record, source));
		for (const item of stamped) {
			checkOrder(this, source, item, previous);
			previous = item;
		}
		for (const item of stamped) {
			if (pass.lowFromNewest) {
				// The first poll: the window below the newest record (or below n8n's
				// clock, if the service's runs ahead).
				pass.low = Math.min(item.atMs, nowMs) - overlapMs;
				pass.lowFromNewest = undefined;
			}
			if (pass.low !== null && item.atMs < pass.low) return { pages, done: true };
			take(item);
			pass.position = item.atMs;
		}
		if (pages >= maxPages && page.nextCursor !== undefined) {
			pass.cursor = page.nextCursor;
			return { pages, done: false };
		}
	}
	return { pages, done: true };
}

/**
 * The entries the next polls need: those in their window, and
 * those an unfinished pass has yet to meet again.
 */
function keptEntries(
	seen: Map<string, { at: number; print: string }>,
	windowLow: number,
	pass: Pass | null,
): FeedState['window'] {
	const top = pass ? (pass.position ?? pass.restartedBelow ?? Infinity) : -Infinity;
	const bottom = pass?.low ?? -Infinity;
	const kept: FeedState['window'] = [];
	for (const [id, { at, print }] of seen)
		if (at >= windowLow || (at <= top && at >= bottom)) kept.push([id, at, print]);
	return kept;
}

/**
 * How far before activation (on the service's clock) a change still counts as
 * after it: timestamps may be whole seconds.
 */
const CHANGED_AT_ROUNDING_MS = 1_000;

/**
 * Updated Customer: customers have no order by updated_at, so each poll scans
 * the list and emits every customer whose fingerprint differs from the last
 * scan's (a long scan goes on at the next poll).
 */
export async function scanChanges(
	this: IPollFunctions,
	settings: Omit<FeedSettings, 'compareStates'>,
): Promise<IDataObject[]> {
	const { source, query } = settings;
	const staticData = this.getWorkflowStaticData('node');
	const loaded = loadState(staticData, 'scan', query);
	const state: ScanState = loaded ?? {
		kind: 'scan',
		query,
		cursor: null,
		scan: 1,
		silent: !settings.emitExisting,
		known: [],
	};
	const known = new Map(state.known.map(([id, print, scan]) => [id, { print, scan }]));
	const emitted = new Map<string, IDataObject>();
	const trace: RequestTrace = {};
	const changedAt = (record: IDataObject) =>
		parseServiceTimestamp(record.updated_at) ?? parseServiceTimestamp(record.created_at);

	const take = (record: IDataObject) => {
		const id = recordId(this, record, source);
		const print = fingerprint(record);
		// The silent scan cannot know what an unread page held at
		// activation: a change since then tells.
		const changed = state.silent
			? (changedAt(record) ?? -Infinity) >= (state.silentSince ?? Infinity)
			: known.get(id)?.print !== print;
		if (changed) {
			emitted.delete(id);
			emitted.set(id, record);
		}
		known.set(id, { print, scan: state.scan });
	};

	let budget = settings.maxPagesPerPoll;
	// Reads the scan on from state.cursor with the pages left:
	// 'cutShort' leaves the next cursor in state.cursor.
	const readScan = async (): Promise<'finished' | 'cutShort' | 'cursorRejected'> => {
		let pages = 0;
		for await (const page of readPages.call(this, source, { cursor: state.cursor, trace })) {
			// Refused before any page was read.
			if (page === 'cursorRejected') return page;
			if (state.silent && state.silentSince === undefined) {
				const offset = trace.serviceClockOffsetMs;
				state.silentSince =
					Date.now() +
					(offset ?? 0) -
					(offset === undefined ? settings.overlapMs : CHANGED_AT_ROUNDING_MS);
			}
			pages++;
			for (const record of page.items) take(record);
			if (pages >= budget && page.nextCursor !== undefined) {
				state.cursor = page.nextCursor;
				return 'cutShort';
			}
		}
		budget -= pages;
		return 'finished';
	};
	const finishScan = () => {
		// A finished scan saw every customer that still exists: forget the others.
		for (const [id, entry] of known) if (entry.scan !== state.scan) known.delete(id);
		state.scan++;
		state.silent = false;
		state.silentSince = undefined;
		state.cursor = null;
	};
	// A scan left unfinished goes on first; one more from the top may follow with the pages left.
	let scansLeft = loaded && state.cursor !== null ? 2 : 1;
	while (budget > 0 && scansLeft > 0) {
		const end = await readScan();
		if (end === 'cutShort') break;
		if (end === 'cursorRejected') {
			// The scan starts again from the top; the refused request costs a page.
			state.cursor = null;
			budget--;
		} else {
			finishScan();
			scansLeft--;
		}
	}

	state.known = [...known].map(([id, { print, scan }]) => [id, print, scan]);
	saveState(staticData, state);
	return [...emitted.values()].sort((a, b) => (changedAt(a) ?? 0) - (changedAt(b) ?? 0));
}
