import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import type { ApiFunctions } from './apiRequest';
import { listPages, type ListPage, type ListRequest } from './paginate';
import { createdAt, oldestFirst, refusal, warnOneEnd } from './readBothEnds';

/** One end between runs. It has read every item past `last` and, of the items at `last`, these ids. */
interface EndPosition {
	/** The service cursor of this end's next page; null before its first page. */
	cursor: string | null;
	/** created_at of the last item this end read, epoch ms; null before the first. */
	last: number | null;
	atLast: string[];
}

/** Where a read from both ends stands; `oldest` null once the list is read from the newest end only. */
interface Position {
	newest: EndPosition;
	oldest: EndPosition | null;
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
	let fault: string | undefined;
	const met = () =>
		newest.ended ||
		oldest?.ended === true ||
		(oldest?.last != null && newest.last !== null && newest.last < oldest.last);
	const readOn = async (end: Reading): Promise<void> => {
		while (end.pagesRead < end.budget && !met() && fault === undefined) {
			// At one created_at the newest end goes on through it alone.
			if (end === oldest && end.last === newest.last) return;
			const page = await nextPage(end.pages).catch(
				end === oldest && end.pagesRead === 0 && end.cursor === null ? refusal : rethrow,
			);
			if (typeof page === 'string') fault = page;
			else fault ??= pageFault(end, page, newest);
			if (fault !== undefined && end === oldest) return;
			take(end, page as ListPage);
		}
	};
	try {
		// The oldest end starts after the newest end's first page: a list of one page costs one call.
		const firstPageAlone = newest.last === null;
		if (firstPageAlone) {
			const page = await nextPage(newest.pages);
			fault = pageFault(newest, page, newest);
			take(newest, page);
		}
		// That run's pages from both ends are one fewer from the oldest: no round with one end alone.
		const oldestBudget = pagesPerEnd - (firstPageAlone ? 1 : 0);
		if (position.oldest && oldestBudget > 0 && fault === undefined && !met())
			oldest = openReading(
				this,
				{ ...list, qs: { ...list.qs, ...oldestFirst } },
				position.oldest,
				1,
				oldestBudget,
			);
		await Promise.all([readOn(newest), oldest && readOn(oldest)]);
	} finally {
		void newest.pages.return();
		void oldest?.pages.return();
	}
	if (fault !== undefined && position.oldest !== null) {
		warnOneEnd.call(this, list, fault);
		position.oldest = null;
	}
	// From one end nothing is checked against the ids at its last created_at: the position stays small.
	if (position.oldest === null) position.newest.atLast = [];
	return emit(list, position, newest, position.oldest ? oldest : undefined);
}

/**
 * The run's items not output before, and the next position: the newest end's items, checked against
 * what the oldest end had read; then the oldest end's, against what the newest end has now read.
 */
function emit(
	list: ListRequest,
	position: Position,
	newest: Reading,
	oldest: Reading | undefined,
): BothEndsRun {
	const items: IDataObject[] = [];
	const output = new Set<string>();
	const keep = (read: Reading, end: EndPosition, other: EndPosition | null) => {
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
	keep(newest, position.newest, position.oldest);
	if (oldest && position.oldest) keep(oldest, position.oldest, position.newest);
	const { newest: n, oldest: o } = position;
	const done =
		newest.ended ||
		oldest?.ended === true ||
		(o?.last != null && n.last !== null && n.last < o.last);
	if (!done)
		return {
			items,
			position: PREFIX + Buffer.from(JSON.stringify(position)).toString('base64url'),
		};
	if (o?.last != null) list.activity?.note('listsFromBothEnds');
	return { items, position: undefined };
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

/** Why a page cannot be its end's next one: out of created_at order, or (the oldest end's first) not older. */
function pageFault(end: Reading, page: ListPage, newest: Reading): string | undefined {
	// A service that ignores sort=asc answers its newest page to the oldest end's first request.
	const first = end !== newest && end.pagesRead === 0 && end.cursor === null;
	// An empty first page is not the end of the list (the newest end has more), as for Return All.
	if (first && !(page.items.length > 0 && createdAt(page.items[0]) < newest.last!))
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

/** Whether an end has read this item: the newest end (-1) every item after its last, the oldest (1) before. */
function hasRead(end: EndPosition, direction: -1 | 1, time: number, id: string): boolean {
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
	if (isEnd(position?.newest) && (position.oldest === null || isEnd(position.oldest)))
		return position as Position;
	throw new NodeOperationError(this.getNode(), 'The Cursor is not a position this node gave out', {
		description:
			'A Cursor that starts with "both-ends:" must be the next_cursor of a run that read from ' +
			'both ends, unchanged. Leave Cursor empty to start the list again.',
		itemIndex,
	});
}

/** The position's JSON, or undefined where it is not base64url JSON (the message says what to do). */
function parsePosition(text: string): { newest?: unknown; oldest?: unknown } | undefined {
	try {
		return JSON.parse(Buffer.from(text, 'base64url').toString()) as { newest?: unknown };
	} catch {
		return undefined;
	}
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
