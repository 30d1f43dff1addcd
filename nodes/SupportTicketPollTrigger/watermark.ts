import type { IDataObject } from 'n8n-workflow';

import { parseServiceTimestamp } from '../shared/descriptions/serviceTimestamp';

/**
 * What was already seen: the newest timestamp, and the ids seen at exactly that timestamp
 * (several records can share one timestamp; the next poll must still catch the ones it missed).
 */
export interface Watermark {
	at: string;
	ids: string[];
}

/**
 * Orders two timestamps as instants, read like every service timestamp (no zone = UTC, Unix
 * seconds or milliseconds); as strings only if one is unreadable (e.g. a watermark saved by an
 * older version from a text that is no longer read).
 */
export function compareTimestamps(a: string, b: string): number {
	const [x, y] = [parseServiceTimestamp(a), parseServiceTimestamp(b)];
	if (x !== undefined && y !== undefined) return x - y;
	return a < b ? -1 : a > b ? 1 : 0;
}

export interface Stamped {
	id: string;
	at: string;
	record: IDataObject;
}

/**
 * The record's id and timestamp (a number is kept as its text, as the watermark stores text),
 * or what is wrong with them, for the error message.
 */
export function stampOf(record: IDataObject, field: string): Stamped | { problem: string } {
	const at = record[field];
	const id = record.id;
	if (at === undefined || at === null || at === '') return { problem: `without ${field}` };
	if (typeof id !== 'string' && typeof id !== 'number') return { problem: 'without id' };
	if ((typeof at !== 'string' && typeof at !== 'number') || parseServiceTimestamp(at) === undefined) {
		return { problem: `whose ${field} ${JSON.stringify(at)} is not a date and time` };
	}
	return { id: String(id), at: String(at), record };
}

/** Whether a record is at or behind the watermark, i.e. was emitted or recorded before. */
export function isSeen(item: Stamped, watermark: Watermark | null): boolean {
	if (!watermark) return false;
	const order = compareTimestamps(item.at, watermark.at);
	return order < 0 || (order === 0 && watermark.ids.includes(item.id));
}

/** The oldest position among `start` and the given records, with every id seen at exactly that timestamp. */
export function lowest(start: Watermark | null | undefined, items: Stamped[]): Watermark | null {
	let low = start ? { at: start.at, ids: [...start.ids] } : null;
	for (const item of items) {
		const order = low ? compareTimestamps(item.at, low.at) : -1;
		if (order < 0 || !low) low = { at: item.at, ids: [item.id] };
		else if (order === 0 && !low.ids.includes(item.id)) low.ids.push(item.id);
	}
	return low;
}
