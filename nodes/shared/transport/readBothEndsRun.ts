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

/**
 * One run of One Page per Run from both ends: up to `rounds` pages from each end at once, each
 * item once across all runs. The position carries both cursors and where each end stands
 * (docs/operations.md#one-page-per-run-from-both-ends).
 */
export async function readBothEndsRun(
	this: ApiFunctions,
	list: ListRequest,
	rounds: number,
	cursor: string | undefined,
): Promise<BothEndsRun> {
	const position = cursor === undefined ? start() : decode.call(this, cursor, list.itemIndex);
	const { newest } = position;
	const newestPages = listPages.call(this, { ...list, cursor: newest.cursor ?? undefined });
	let oldestPages: AsyncGenerator<ListPage, void> | undefined;
	const items: IDataObject[] = [];
	const output = new Set<string>();
	const emit = (item: IDataObject, other: EndPosition | null, direction: -1 | 1) => {
		const id = String(item.id);
		if (output.has(id) || (other && hasRead(other, direction, createdAt(item), id))) return;
		output.add(id);
		items.push(item);
	};
	try {
		for (let round = 0; round < rounds; round++) {
			// The oldest end starts after the newest end's first page: a list of one page costs one call.
			const { oldest } = position;
			const readOldest = oldest !== null && newest.last !== null && oldest.last !== newest.last;
			if (readOldest) oldestPages ??= listPages.call(this, oldestList(list, oldest));
			const [newestPage, oldestPage] = await Promise.all([
				nextPage(newestPages),
				readOldest ? nextPage(oldestPages!).catch(firstPageRefusal(oldest)) : undefined,
			]);
			const newestFault = outOfOrder(newestPage.items, newest, -1);
			const oldestFault =
				typeof oldestPage === 'string'
					? oldestPage
					: oldestPage && oldest
						? (startsNewer(oldestPage, oldest, newest) ?? outOfOrder(oldestPage.items, oldest, 1))
						: undefined;
			const fault = newestFault ?? oldestFault;
			if (fault !== undefined && position.oldest !== null) {
				warnOneEnd.call(this, list, fault);
				position.oldest = null;
			}
			for (const item of newestPage.items) emit(item, position.oldest, 1);
			advance(newest, newestPage.items);
			newest.cursor = newestPage.nextCursor ?? null;
			const end = position.oldest;
			if (end && typeof oldestPage === 'object') {
				for (const item of oldestPage.items) emit(item, newest, -1);
				advance(end, oldestPage.items);
				end.cursor = oldestPage.nextCursor ?? null;
				if (oldestPage.nextCursor === undefined) return finished(list, items, position);
			}
			if (newestPage.nextCursor === undefined) return finished(list, items, position);
			// The newest end past the oldest end's last item: together they have read every item.
			if (end?.last != null && newest.last! < end.last) return finished(list, items, position);
		}
	} finally {
		void newestPages.return();
		void oldestPages?.return();
	}
	return { items, position: PREFIX + Buffer.from(JSON.stringify(position)).toString('base64url') };
}

function finished(list: ListRequest, items: IDataObject[], position: Position): BothEndsRun {
	if (position.oldest?.last != null) list.activity?.note('listsFromBothEnds');
	return { items, position: undefined };
}

const start = (): Position => ({
	newest: { cursor: null, last: null, atLast: [] },
	oldest: { cursor: null, last: null, atLast: [] },
});

const oldestList = (list: ListRequest, oldest: EndPosition): ListRequest => ({
	...list,
	qs: { ...list.qs, ...oldestFirst },
	cursor: oldest.cursor ?? undefined,
});

async function nextPage(pages: AsyncGenerator<ListPage, void>): Promise<ListPage> {
	const { value: page, done } = await pages.next();
	if (done) return { items: [], nextCursor: undefined };
	if (page.missingCursor) throw page.missingCursor;
	return page;
}

/** A 4xx on the oldest end's first page means it is not listed oldest first; later, an error. */
const firstPageRefusal = (oldest: EndPosition | null) => (error: unknown) => {
	if (oldest?.cursor !== null) throw error;
	return refusal(error);
};

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

/** Why a page cannot be one end's next page: an item out of created_at order or unreadable. */
function outOfOrder(items: IDataObject[], end: EndPosition, direction: -1 | 1): string | undefined {
	let last = end.last ?? NaN;
	for (const item of items) {
		const time = createdAt(item);
		if (Number.isNaN(time)) return 'has a created_at the node cannot read';
		if ((time - last) * direction < 0) return 'did not come back in created_at order';
		last = time;
	}
	return undefined;
}

/** A service that ignores sort=asc answers its newest page to the oldest end's first request. */
function startsNewer(page: ListPage, oldest: EndPosition, newest: EndPosition): string | undefined {
	if (oldest.cursor !== null || page.items.length === 0) return undefined;
	return createdAt(page.items[0]) < newest.last! ? undefined : 'did not come back oldest first';
}

function decode(this: ApiFunctions, cursor: string, itemIndex: number | undefined): Position {
	try {
		const position = JSON.parse(Buffer.from(cursor.slice(PREFIX.length), 'base64url').toString());
		if (isEnd(position.newest) && (position.oldest === null || isEnd(position.oldest)))
			return position as Position;
	} catch {}
	throw new NodeOperationError(this.getNode(), 'The Cursor is not a position this node gave out', {
		description:
			'A Cursor that starts with "both-ends:" must be the next_cursor of a run that read from ' +
			'both ends, unchanged. Leave Cursor empty to start the list again.',
		itemIndex,
	});
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
