import type { IDataObject } from 'n8n-workflow';

import { parseServiceTimestamp } from '../parameters/serviceTimestamp';
import type { ApiFunctions } from './apiRequest';
import { listPages, type ListPage, type ListRequest } from './paginate';

/** One end of the list: what it read so far, in its order, and where it stands. */
interface End {
	readonly pages: AsyncGenerator<ListPage, void>;
	/** -1: the newest end (created_at only falls); 1: the oldest end (it only rises). */
	readonly direction: -1 | 1;
	readonly items: IDataObject[];
	/** created_at of the last item read, epoch ms; NaN before the first. */
	last: number;
	/** How many items at the end share `last`. */
	atLast: number;
	done: boolean;
	/** Why this end cannot be used: an item out of created_at order, or without a readable one. */
	fault?: string;
	/** Why its last page failed: thrown only where that page was needed. */
	error?: unknown;
}

/**
 * Return All from the newest end and the oldest end (`sort_by=created_at&sort=asc`) at once, newest
 * first; one chain where the service does not list it oldest first (docs/api.md#paging).
 */
export async function readBothEnds(this: ApiFunctions, list: ListRequest): Promise<IDataObject[]> {
	const newest = openEnd(listPages.call(this, list), -1);
	// A list of one page costs one call, as one chain.
	await step(newest);
	if (newest.error !== undefined) throw newest.error;
	if (newest.done) return newest.items;
	const firstPage = tail(newest);
	const oldest = openEnd(listPages.call(this, { ...list, qs: { ...list.qs, ...oldestFirst } }), 1);
	await Promise.all([step(newest), step(oldest)]);
	// A 4xx: the service does not list it oldest first; its newest page again: it ignores sort.
	if (oldest.error !== undefined && !newest.done) oldest.fault = refusal(oldest.error);
	else if (!startsOlder(oldest.items[0], firstPage))
		oldest.fault = 'did not come back oldest first';
	// Each end asks for its next page as soon as its last is in: not the slower of two each round.
	const reading = new Map<End, Promise<End>>();
	const readOn = (end: End) =>
		void (
			reading.has(end) ||
			reading.set(
				end,
				step(end).then(() => end),
			)
		);
	const met = () => newest.done || oldest.done || oldest.last > newest.last;
	const stopped = (end: End) => end.fault !== undefined || end.error !== undefined;
	for (;;) {
		if (met() || stopped(newest) || stopped(oldest)) {
			// A page on its way only moves its end further on: wait for it, then decide.
			await Promise.all(reading.values());
			if (newest.done) return newest.items;
			// A page that failed after the ends met was not needed; one before was.
			const fault = newest.fault ?? oldest.fault;
			if (newest.error !== undefined && (fault !== undefined || !met())) throw newest.error;
			if (fault !== undefined) return await oneEnd.call(this, list, newest, oldest, fault);
			if (!met()) throw oldest.error;
			list.activity?.note('listsFromBothEnds');
			return joined(newest, oldest);
		}
		if (oldest.last < newest.last) {
			readOn(newest);
			readOn(oldest);
		}
		// Both ends stand at one created_at: the end with more of it goes on through it alone.
		else readOn(newest.atLast >= oldest.atLast ? newest : oldest);
		reading.delete(await Promise.race(reading.values()));
	}
}

/** Where an end stands: the created_at of its last item and the ids of the items it read at it. */
export interface EndMark {
	last: number;
	atLast: string[];
}

const tail = (end: End): EndMark => ({
	last: end.last,
	atLast: end.items.slice(end.items.length - end.atLast).map((item) => String(item.id)),
});

/**
 * Whether the oldest end's first item is below the newest end's mark: older, or at its created_at
 * but not read by it (many items may share the oldest created_at). A service that ignores sort=asc
 * answers its newest page again.
 */
export function startsOlder(first: IDataObject | undefined, newest: EndMark): boolean {
	if (first === undefined) return false;
	const time = createdAt(first);
	return time < newest.last || (time === newest.last && !newest.atLast.includes(String(first.id)));
}

function openEnd(pages: AsyncGenerator<ListPage, void>, direction: -1 | 1): End {
	return { pages, direction, items: [], last: NaN, atLast: 0, done: false };
}

async function step(end: End): Promise<void> {
	let next: IteratorResult<ListPage, void>;
	try {
		next = await end.pages.next();
		if (!next.done && next.value.missingCursor) throw next.value.missingCursor;
	} catch (error) {
		end.error = error;
		return;
	}
	const { value: page, done } = next;
	end.done = done === true || page.nextCursor === undefined;
	if (done) return;
	for (const item of page.items) {
		end.items.push(item);
		const time = createdAt(item);
		if (Number.isNaN(time)) end.fault ??= 'has a created_at the node cannot read';
		else if ((time - end.last) * end.direction < 0)
			end.fault ??= 'did not come back in created_at order';
		end.atLast = time === end.last ? end.atLast + 1 : 1;
		end.last = time;
	}
}

/** The query of the oldest end: the list oldest first, where the service supports it. */
export const oldestFirst = { sort_by: 'created_at', sort: 'asc' };

/** Why to read from one end when the oldest end's first page was refused (4xx); else an error. */
export function refusal(error: unknown): string {
	const status = Number((error as { httpCode?: unknown } | null)?.httpCode);
	if (status >= 400 && status < 500 && status !== 408 && status !== 429)
		return `was refused oldest first (HTTP ${status})`;
	throw error;
}

/**
 * The newest end above its last created_at, then the oldest end from there: the newest end holds
 * every item newer than its last one, the oldest end (past it) every item at or before it.
 */
function joined(newest: End, oldest: End): IDataObject[] {
	const items = newest.items;
	items.length -= newest.atLast;
	let end = oldest.items.length;
	while (end > 0 && createdAt(oldest.items[end - 1]) > newest.last) end--;
	for (let i = end - 1; i >= 0; i--) items.push(oldest.items[i]);
	oldest.items.length = 0;
	return items;
}

/** The newest end read on alone, reusing what it read: the list as one chain gives it. */
async function oneEnd(
	this: ApiFunctions,
	list: ListRequest,
	newest: End,
	oldest: End,
	reason: string,
): Promise<IDataObject[]> {
	oldest.items.length = 0;
	void oldest.pages.return();
	warnOneEnd.call(this, list, reason);
	for await (const page of newest.pages) {
		for (const item of page.items) newest.items.push(item);
	}
	return newest.items;
}

/** Says in n8n's log that a list is read from the newest end only, and why. */
export function warnOneEnd(this: ApiFunctions, list: ListRequest, reason: string): void {
	// Once per run: a reply Get Many of many tickets would say it for each.
	if (!list.activity?.counts.listsFromOneEnd) {
		this.logger.warn(
			`Read From Both Ends: ${list.path} ${reason}, so it was read from the newest end only. ` +
				'Turn the option off for this list to save a call.',
		);
	}
	list.activity?.note('listsFromOneEnd');
}

export const createdAt = (item: IDataObject): number =>
	parseServiceTimestamp(item.created_at) ?? NaN;
