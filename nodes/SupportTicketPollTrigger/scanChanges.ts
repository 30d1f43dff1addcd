import { NodeApiError, type IDataObject, type IPollFunctions, type JsonObject } from 'n8n-workflow';

import { listPages, MAX_PER_PAGE } from '../shared/transport/paginate';
import { parseServiceTimestamp } from '../shared/descriptions/serviceTimestamp';
import { toNodeError } from '../shared/transport/toNodeError';
import { fingerprint } from './fingerprint';
import type { PollSource } from './pollEvents';
import { loadScanState, savePollState, type ScanState } from './pollState';
import { isRejectedCursor } from './readSegment';

export interface ScanSettings {
	source: PollSource;
	query: string;
	emitExisting: boolean;
	maxPagesPerPoll: number;
}

/**
 * Updated Customer: the spec gives customers no order by updated_at, so each poll reads the whole
 * list (⌈customers / 100⌉ calls; a scan longer than Max Pages per Poll goes on at the next poll)
 * and emits every customer whose fingerprint differs from the one noted at the last scan, or that
 * is new. The state holds one fingerprint per customer, about 35 bytes each.
 */
export async function scanChanges(this: IPollFunctions, settings: ScanSettings): Promise<IDataObject[]> {
	const { source, query } = settings;
	const staticData = this.getWorkflowStaticData('node');
	const loaded = loadScanState(staticData, query);
	const state: ScanState = loaded ?? { version: 2, kind: 'scan', query, cursor: null, scan: 1, silent: !settings.emitExisting, known: [] };
	const known = new Map(state.known.map(([id, print, scan]) => [id, { print, scan }]));
	const emitted = new Map<string, IDataObject>();

	let budget = settings.maxPagesPerPoll;
	// A scan left unfinished goes on first; one more from the top may follow with the pages left.
	let started = loaded && state.cursor !== null ? 0 : 1;
	while (budget > 0) {
		const cursor = state.cursor ?? undefined;
		let pages = 0;
		let done = true;
		try {
			for await (const page of listPages.call(this, { path: source.path, qs: source.qs, perPage: MAX_PER_PAGE, cursor, context: { poll: true } })) {
				pages++;
				for (const record of page.items) {
					const id = record.id;
					if (typeof id !== 'string' && typeof id !== 'number') {
						throw new NodeApiError(this.getNode(), record as JsonObject, {
							message: `The service listed a ${source.noun} without id`,
							description: `The poll trigger needs each ${source.noun}'s id to know what changed.`,
						});
					}
					const print = fingerprint(record);
					if (known.get(String(id))?.print !== print && !state.silent) {
						emitted.delete(String(id));
						emitted.set(String(id), record);
					}
					known.set(String(id), { print, scan: state.scan });
				}
				if (pages >= budget && page.nextCursor !== undefined) {
					state.cursor = page.nextCursor;
					done = false;
					break;
				}
			}
		} catch (error) {
			if (!(pages === 0 && cursor !== undefined && isRejectedCursor(error))) throw toNodeError(this.getNode(), error, 0);
			this.logger.warn(
				`Support Ticket Poll Trigger: the service rejected the saved page cursor (it may have expired, or the service restarted). The ${source.noun}s are read again from the start; those already emitted are not emitted again.`,
			);
			state.cursor = null;
			budget -= 1;
			continue;
		}
		budget -= pages;
		if (!done) break;
		// A finished scan saw every customer that still exists: forget the others.
		for (const [id, entry] of known) if (entry.scan !== state.scan) known.delete(id);
		state.scan++;
		state.silent = false;
		state.cursor = null;
		if (started > 0) break;
		started++;
	}

	state.known = [...known].map(([id, { print, scan }]) => [id, print, scan]);
	savePollState(staticData, state);
	// Oldest change first, by updated_at where the service sends one.
	const changedAt = (record: IDataObject) => parseServiceTimestamp(record.updated_at) ?? parseServiceTimestamp(record.created_at) ?? 0;
	return [...emitted.values()].sort((a, b) => changedAt(a) - changedAt(b));
}
