import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import type { ApiFunctions } from './apiRequest';
import { listPages, type ListPage, type ListRequest } from './paginate';
import {
	createdAt,
	oldestFirst,
	refusal,
	startsOlder,
	warnOneEnd,
	type EndMark,
} from './readBothEnds';

/** One end between runs: it has read every item past `last` and, of those at `last`, these ids. */
interface EndPosition {
	/** The service cursor of this end's next page; null before its first page. */
	cursor: string | null;
	/** created_at of the last item this end read, epoch ms; null before the first. */
	last: number | null;
	atLast: string[];
}

/** How far an end has read: every item past `last` and, of those at `last`, these ids. */
type Reach = Omit<EndPosition, 'cursor'>;

/** Where a read from both ends stands; `oldest` null once it reads from the newest end only. */
interface Position {
	newest: EndPosition;
	oldest: EndPosition | null;
	/** Where the oldest end stood when the read fell back to the newest: its items are skipped. */
	skip?: Reach;
}

const PREFIX = 'both-ends:';

/** Whether a Cursor is a position of this reader rather than a service cursor. */
export const isBothEndsPosition = (cursor: string | undefined): cursor is string =>
	cursor?.startsWith(PREFIX) === true;

export interface BothEndsRun {
	items: IDataObject[];
	/** The next run's Cursor; undefined once the two ends hold the whole list. */
	position: string | undefined;
}

/** One end's reading in this run: its pages, and where it stands as they come in. */
interface Reading {
	readonly pages: AsyncGenerator<ListPage, void>;
	readonly direction: -1 | 1;
	readonly items: IDataObject[];
	pagesRead: number;
	/** Pages this end may read in this run. */
	budget: number;
	/** created_at of the last item read so far (the position's until the first page). */
	last: number | null;
	cursor: string | null;
	ended: boolean;
	/** Why its last page failed: thrown only where that page was needed. */
	error?: unknown;
}

/**
 * One run of One Page per Run from both ends: up to `pagesPerEnd` pages from each end, each end
 * reading on as soon as its page is in; each item once across all runs. The position carries both
 * cursors and where each end stands (docs/operations.md#one-page-per-run-from-both-ends).
 */
export async function readBothEndsRun(
	this: ApiFunctions,
	list: ListRequest,
	pagesPerEnd: number,
	cursor: string | undefined,
): Promise<BothEndsRun> {
	const position = cursor === undefined ? start() : decode.call(this, cursor, list.itemIndex);
	const newest = openReading(this, list, position.newest, -1, pagesPerEnd);
	let oldest: Reading | undefined;
	let oldestStart: EndMark | undefined;
	let fault: string | undefined;
	const met = () =>
		newest.ended ||
		oldest?.ended === true ||
		(oldest?.last != null && newest.last !== null && newest.last < oldest.last);
	/** Ids the position would keep at the ends' last created_at, were this page taken. */
	const idsKept = (end: Reading, page: ListPage): number => {
		if (!position.oldest) return 0;
		const n = standing(position.newest, newest, end === newest ? page : undefined);
		const o = oldest
			? standing(position.oldest, oldest, end === oldest ? page : undefined)
			: position.oldest;
		// Both at one created_at, the oldest reads no further: the newest's ids there are not kept.
		return o.atLast.length + (n.last === o.last ? 0 : n.atLast.length);
	};
	const readOn = async (end: Reading): Promise<void> => {
		while (end.pagesRead < end.budget && !met() && fault === undefined) {
			// At one created_at the newest end goes on through it alone.
			if (end === oldest && end.last === newest.last) return;
			let page: ListPage;
			try {
				page = await nextPage(end.pages);
			} catch (error) {
				end.error = error;
				return;
			}
			fault ??= pageFault(end, page, end === oldest ? oldestStart : undefined);
			fault ??= idsKept(end, page) > MAX_IDS_KEPT ? CROWDED : undefined;
			if (fault !== undefined && end === oldest) return;
			take(end, page);
		}
	};
	try {
		// The oldest end starts after the newest end's first page: a list of one page costs one call.
		const firstPageAlone = newest.last === null;
		if (firstPageAlone) {
			const page = await nextPage(newest.pages);
			fault = pageFault(newest, page);
			take(newest, page);
		}
		// That run's pages from both ends are one fewer from the oldest: no round with one end alone.
		const oldestBudget = pagesPerEnd - (firstPageAlone ? 1 : 0);
		if (position.oldest && oldestBudget > 0 && fault === undefined && !met()) {
			// The newest end has read a page by now: its last created_at is known.
			if (position.oldest.last === null) oldestStart = standing(position.newest, newest) as EndMark;
			oldest = openReading(
				this,
				{ ...list, qs: { ...list.qs, ...oldestFirst } },
				position.oldest,
				1,
				oldestBudget,
			);
		}
		await Promise.all([readOn(newest), oldest && readOn(oldest)]);
	} finally {
		void newest.pages.return();
		void oldest?.pages.return();
	}
	// A page that failed after the ends met was not needed; one before was: the run is read again.
	if (!met() && newest.error !== undefined) throw newest.error;
	if (!met() && oldest?.error !== undefined && fault === undefined)
		fault = oldestStart && oldest.pagesRead === 0 ? refusal(oldest.error) : rethrow(oldest.error);
	if (fault !== undefined) fallBack.call(this, list, position, fault);
	const items = emit(position, newest, position.oldest ? oldest : undefined);
	const { newest: n, oldest: o } = position;
	// From one end, or both at one created_at (the oldest reads no further), the newest's ids at
	// its last are not needed: the position stays small.
	if (!o || n.last === o.last) n.atLast = [];
	const done =
		newest.ended ||
		oldest?.ended === true ||
		(o?.last != null && n.last !== null && n.last < o.last);
	if (done && o?.last != null) list.activity?.note('listsFromBothEnds');
	if (done) return { items, position: undefined };
	return { items, position: PREFIX + Buffer.from(JSON.stringify(position)).toString('base64url') };
}

/** Ids a position keeps of items at the ends' last created_at: under 30 kB with 36-char ids. */
const MAX_IDS_KEPT = 500;
const CROWDED = `has over ${MAX_IDS_KEPT} items with one created_at`;

/** How far an end has read in this run from `start`, with `page` taken if given. */
function standing(start: EndPosition, read: Reading, page?: ListPage): Reach {
	const items = page ? [...read.items, ...page.items] : read.items;
	const last = items.length > 0 ? createdAt(items[items.length - 1]) : read.last;
	let from = items.length;
	while (from > 0 && createdAt(items[from - 1]) === last) from--;
	const ids = items.slice(from).map((item) => String(item.id));
	return { last, atLast: from === 0 && start.last === last ? [...start.atLast, ...ids] : ids };
}

/** The list read on from the newest end only; what the oldest end output is skipped. */
function fallBack(this: ApiFunctions, list: ListRequest, position: Position, reason: string) {
	if (position.oldest === null) return;
	warnOneEnd.call(this, list, reason);
	const { last, atLast } = position.oldest;
	if (last !== null) position.skip = { last, atLast };
	position.oldest = null;
}

/**
 * The run's items not output before, the position moved past them: the newest end's items, checked
 * against what the oldest end had read; then the oldest end's, against what the newest has read.
 */
function emit(position: Position, newest: Reading, oldest: Reading | undefined): IDataObject[] {
	const items: IDataObject[] = [];
	const output = new Set<string>();
	const keep = (read: Reading, end: EndPosition, other: Reach | null) => {
		for (const item of read.items) {
			const id = String(item.id);
			if (
				output.has(id) ||
				(other && hasRead(other, -read.direction as -1 | 1, createdAt(item), id))
			)
				continue;
			output.add(id);
			items.push(item);
		}
		advance(end, read.items);
		end.cursor = read.cursor;
	};
	keep(newest, position.newest, position.oldest ?? position.skip ?? null);
	if (oldest && position.oldest) keep(oldest, position.oldest, position.newest);
	return items;
}

function openReading(
	ctx: ApiFunctions,
	list: ListRequest,
	end: EndPosition,
	direction: -1 | 1,
	budget: number,
): Reading {
	const pages = listPages.call(ctx, { ...list, cursor: end.cursor ?? undefined });
	return {
		pages,
		direction,
		items: [],
		pagesRead: 0,
		budget,
		last: end.last,
		cursor: end.cursor,
		ended: false,
	};
}

function take(end: Reading, page: ListPage): void {
	for (const item of page.items) end.items.push(item);
	if (page.items.length > 0) end.last = createdAt(page.items[page.items.length - 1]);
	end.pagesRead++;
	end.cursor = page.nextCursor ?? null;
	end.ended = page.nextCursor === undefined;
}

/** Why a page cannot be its end's next: out of created_at order, or (oldest's first) not older. */
function pageFault(end: Reading, page: ListPage, oldestStart?: EndMark): string | undefined {
	// An empty first page is not the end of the list (the newest end has more), as for Return All.
	if (oldestStart && end.pagesRead === 0 && !startsOlder(page.items[0], oldestStart))
		return 'did not come back oldest first';
	let last = end.last ?? NaN;
	for (const item of page.items) {
		const time = createdAt(item);
		if (Number.isNaN(time)) return 'has a created_at the node cannot read';
		if ((time - last) * end.direction < 0) return 'did not come back in created_at order';
		last = time;
	}
	return undefined;
}

const rethrow = (error: unknown): never => {
	throw error;
};

const start = (): Position => ({
	newest: { cursor: null, last: null, atLast: [] },
	oldest: { cursor: null, last: null, atLast: [] },
});

async function nextPage(pages: AsyncGenerator<ListPage, void>): Promise<ListPage> {
	const { value: page, done } = await pages.next();
	if (done) return { items: [], nextCursor: undefined };
	if (page.missingCursor) throw page.missingCursor;
	return page;
}

/** Whether an end has read this item: the newest (-1) all after its last, the oldest (1) before. */
function hasRead(end: Reach, direction: -1 | 1, time: number, id: string): boolean {
	if (end.last === null) return false;
	return (time - end.last) * direction < 0 || (time === end.last && end.atLast.includes(id));
}

function advance(end: EndPosition, items: IDataObject[]): void {
	for (const item of items) {
		const time = createdAt(item);
		if (time === end.last) end.atLast.push(String(item.id));
		else [end.last, end.atLast] = [time, [String(item.id)]];
	}
}

function decode(this: ApiFunctions, cursor: string, itemIndex: number | undefined): Position {
	const position = parsePosition(cursor.slice(PREFIX.length));
	if (isPosition(position)) return position;
	throw new NodeOperationError(this.getNode(), 'The Cursor is not a position this node gave out', {
		description:
			'A Cursor that starts with "both-ends:" must be the next_cursor of a run that read from ' +
			'both ends, unchanged. Leave Cursor empty to start the list again.',
		itemIndex,
	});
}

/** The position's JSON, or undefined where it is not base64url JSON. */
function parsePosition(text: string): Partial<Record<keyof Position, unknown>> | undefined {
	try {
		return JSON.parse(Buffer.from(text, 'base64url').toString()) as Record<string, unknown>;
	} catch {
		return undefined;
	}
}

/** Whether the node gives out such a position: oldest end not started, or not past the newest. */
function isPosition(position: ReturnType<typeof parsePosition>): position is Position {
	const { newest, oldest, skip } = position ?? {};
	if (!isEnd(newest) || newest.cursor === null) return false;
	if (oldest === null) return skip === undefined || isEnd({ ...skip, cursor: null });
	if (!isEnd(oldest) || skip !== undefined) return false;
	if (oldest.last === null) return oldest.cursor === null && oldest.atLast.length === 0;
	return oldest.cursor !== null && newest.last !== null && oldest.last <= newest.last;
}

function isEnd(end: unknown): end is EndPosition {
	const { cursor, last, atLast } = (end ?? {}) as Partial<EndPosition>;
	return (
		(cursor === null || typeof cursor === 'string') &&
		(last === null || typeof last === 'number') &&
		Array.isArray(atLast) &&
		atLast.every((id) => typeof id === 'string')
	);
}
