import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { listPages, MAX_PER_PAGE } from '../../shared/transport/paginate';

/** With a typed filter, one call reads on until this many matches... */
const ENOUGH_MATCHES = 20;
/** ...or this many pages (2,000 records); scrolling reads the rest. */
const MAX_PAGES_PER_SEARCH = 20;

/**
 * One page per scroll (our cursor is n8n's pagination token). The API has no text
 * search, so a typed filter is matched here and pages are read on until enough match, or
 * a match further down would show "no results".
 */
async function searchPages(
	ctx: ILoadOptionsFunctions,
	path: string,
	label: (item: IDataObject) => string,
	filter: string | undefined,
	paginationToken: string | undefined,
): Promise<INodeListSearchResult> {
	const needle = filter?.trim().toLowerCase();
	const results: INodeListSearchItems[] = [];
	let pages = 0;
	let nextCursor: string | undefined;
	for await (const page of listPages.call(ctx, {
		path,
		perPage: MAX_PER_PAGE,
		cursor: paginationToken || undefined,
	})) {
		pages++;
		nextCursor = page.nextCursor;
		for (const item of page.items) {
			const entry = { name: label(item), value: String(item.id) };
			if (
				!needle ||
				entry.name.toLowerCase().includes(needle) ||
				entry.value.toLowerCase().includes(needle)
			)
				results.push(entry);
		}
		if (
			!needle ||
			nextCursor === undefined ||
			results.length >= ENOUGH_MATCHES ||
			pages >= MAX_PAGES_PER_SEARCH
		) {
			// No token would show this as the whole list, while the service says there is more.
			if (page.missingCursor) throw page.missingCursor;
			break;
		}
	}
	return { results, paginationToken: nextCursor };
}

export async function searchTickets(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPages(
		this,
		'/tickets',
		(t) => `${String(t.subject ?? '(no subject)')} (${String(t.id)})`,
		filter,
		paginationToken,
	);
}

export async function searchCustomers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPages(
		this,
		'/customers',
		(c) => (c.name ? `${String(c.name)} <${String(c.email)}>` : String(c.email ?? c.id)),
		filter,
		paginationToken,
	);
}
