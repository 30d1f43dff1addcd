import type { IDataObject } from 'n8n-workflow';

/**
 * What was already seen: the newest timestamp, and the ids seen at exactly that timestamp
 * (several records can share one timestamp; the next poll must still catch the ones it missed).
 */
export interface Watermark {
	at: string;
	ids: string[];
}

/** Orders two timestamps: as dates when both parse, else as strings (ISO sorts correctly). */
export function compareTimestamps(a: string, b: string): number {
	const [x, y] = [Date.parse(a), Date.parse(b)];
	if (!Number.isNaN(x) && !Number.isNaN(y)) return x - y;
	return a < b ? -1 : a > b ? 1 : 0;
}

export interface Stamped {
	id: string;
	at: string;
	record: IDataObject;
}

/** Whether a record is at or behind the watermark, i.e. was emitted or recorded before. */
export function isSeen(item: Stamped, watermark: Watermark | null): boolean {
	if (!watermark) return false;
	const order = compareTimestamps(item.at, watermark.at);
	return order < 0 || (order === 0 && watermark.ids.includes(item.id));
}

/** Moves the watermark forward over the given records (never backwards). */
export function advance(watermark: Watermark | null, items: Stamped[]): Watermark | null {
	let next = watermark ? { at: watermark.at, ids: [...watermark.ids] } : null;
	for (const item of items) {
		const order = next ? compareTimestamps(item.at, next.at) : 1;
		if (order > 0) next = { at: item.at, ids: [item.id] };
		else if (order === 0 && next && !next.ids.includes(item.id)) next.ids.push(item.id);
	}
	return next;
}
