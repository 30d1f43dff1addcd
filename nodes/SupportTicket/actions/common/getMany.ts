import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { listPages, MAX_PER_PAGE, type ListRequest } from '../../../shared/transport/paginate';
import { readBothEnds } from '../../../shared/transport/readBothEnds';
import { isBothEndsPosition, readBothEndsRun } from '../../../shared/transport/readBothEndsRun';
import { readPaging, type Paging } from '../../../shared/parameters/paging';
import { moreInfo } from '../../../shared/descriptions/moreInfo';
import { withErrorItemFields } from './errorItem';

/** Options → Read From Both Ends of every Get Many (docs/operations.md#read-from-both-ends). */
export const readFromBothEndsOption: INodeProperties = {
	displayName: 'Read From Both Ends',
	name: 'readFromBothEnds',
	type: 'boolean',
	default: false,
	description:
		'Whether Return All and One Page per Run read the list from the newest and the oldest end at ' +
		'once: about twice as fast; items created in the same instant may come in another order. ' +
		`${moreInfo('operations.md#read-from-both-ends')}.`,
};

export interface GetManyRequest
	extends Pick<
		ListRequest,
		'path' | 'qs' | 'context' | 'limiter' | 'baseURL' | 'timeoutMs' | 'activity'
	> {
	/** Ends the list before the first item for which this is true; no further page is fetched. */
	endsBefore?: (item: IDataObject) => boolean;
}

type OnePageRun = Extract<Paging, { mode: 'onePage' }>;

/**
 * The page(s) of one run as the node returns them in "One Page
 * per Run" mode: easy to use in expressions.
 */
interface OnePage extends IDataObject {
	data: IDataObject[];
	count: number;
	has_more: boolean;
	/** Give this to the next run's Cursor; null on the last page. */
	next_cursor: string | null;
}

/**
 * The list part of every Get Many: all items or up to a limit, or one
 * run's page(s) as one item, as Pagination says.
 */
export async function getMany(
	this: IExecuteFunctions,
	itemIndex: number,
	request: GetManyRequest,
): Promise<IDataObject[]> {
	const paging = readPaging(this, itemIndex);
	if (paging.mode === 'onePage') return [await readRun.call(this, itemIndex, request, paging)];
	const { path, qs, context, limiter, baseURL, timeoutMs, activity, endsBefore } = request;
	const limit = paging.mode === 'limit' ? paging.limit : undefined;
	const perPage = limit === undefined ? MAX_PER_PAGE : Math.min(limit, MAX_PER_PAGE);
	const list = { path, qs, context, limiter, activity, baseURL, timeoutMs, itemIndex, perPage };
	// All of the list in its own order only: a Limit, Created After or a sort set is one chain.
	if (limit === undefined && readsBothEnds(this, itemIndex, request))
		return await readBothEnds.call(this, list);
	const all: IDataObject[] = [];
	for await (const page of listPages.call(this, list)) {
		const { items, ended } = cut(page.items, endsBefore);
		for (const item of items) {
			all.push(item);
			if (limit !== undefined && all.length >= limit) return all;
		}
		if (ended) break;
	}
	return all;
}

/** One Page per Run: the run's pages from its Cursor, as one item. */
async function readRun(
	this: IExecuteFunctions,
	itemIndex: number,
	request: GetManyRequest,
	{ pageSize: perPage, pages, cursor }: OnePageRun,
): Promise<OnePage> {
	const { path, qs, limiter, baseURL, timeoutMs, activity, endsBefore } = request;
	const context = { ...request.context, onePagePerRun: true as const };
	const list = { path, qs, limiter, baseURL, timeoutMs, activity, itemIndex, context, perPage };
	const data: IDataObject[] = [];
	let nextCursor: string | undefined;
	let pagesRead = 0;
	try {
		// A position from both ends goes on from both ends, whatever the option says now.
		const bothEnds =
			isBothEndsPosition(cursor) ||
			(cursor === undefined && readsBothEnds(this, itemIndex, request));
		if (bothEnds) {
			const run = await readBothEndsRun.call(this, list, pages, cursor);
			return onePage(run.items, run.position);
		}
		for await (const page of listPages.call(this, { ...list, cursor })) {
			const { items, ended } = cut(page.items, endsBefore);
			// has_more false would tell the loop it is done while the list goes on.
			if (!ended && page.missingCursor) throw page.missingCursor;
			for (const item of items) data.push(item);
			nextCursor = ended ? undefined : page.nextCursor;
			if (nextCursor === undefined || ++pagesRead >= pages) break;
		}
	} catch (error) {
		if (pagesRead > 0) nameFailedPage(error, pagesRead + 1, data.length, path);
		// A loop on has_more reads the run's pages again, rather than stop as if the list ended.
		throw withErrorItemFields(error, { has_more: true, next_cursor: cursor ?? null });
	}
	return onePage(data, nextCursor);
}

const onePage = (data: IDataObject[], nextCursor: string | undefined): OnePage => ({
	data,
	count: data.length,
	has_more: nextCursor !== undefined,
	next_cursor: nextCursor ?? null,
});

/**
 * Read From Both Ends on, and the list in its own order: no sort and nothing that ends it early.
 */
function readsBothEnds(
	ctx: IExecuteFunctions,
	itemIndex: number,
	request: GetManyRequest,
): boolean {
	const on = ctx.getNodeParameter('options.readFromBothEnds', itemIndex, false) === true;
	const { qs, endsBefore } = request;
	return on && qs?.sort_by === undefined && qs?.sort === undefined && !endsBefore;
}

/** Puts the failed page of the run and what was read before the error's description. */
function nameFailedPage(error: unknown, page: number, itemsBefore: number, path: string): void {
	if (!(error instanceof Error)) return;
	// The path's last segment names the records: tickets, replies, customers.
	const records = path.slice(path.lastIndexOf('/') + 1);
	const noun = itemsBefore === 1 ? records.replace(/ies$/, 'y').replace(/s$/, '') : records;
	const where =
		`Page ${page} of this run, after ${itemsBefore} ${noun}; ` +
		'nothing of this run is output, and a new run starts again from Cursor.';
	const failure = error as { description?: string | null };
	failure.description = failure.description ? `${where} ${failure.description}` : where;
}

/** The page's items before the first one `endsBefore` picks, and whether the list ends there. */
function cut(
	items: IDataObject[],
	endsBefore: GetManyRequest['endsBefore'],
): { items: IDataObject[]; ended: boolean } {
	const stop = endsBefore ? items.findIndex(endsBefore) : -1;
	return stop === -1 ? { items, ended: false } : { items: items.slice(0, stop), ended: true };
}
