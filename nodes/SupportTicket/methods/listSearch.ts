import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest } from '../transport/apiRequest';

const PAGE_SIZE = 100;

/**
 * One page of the service's list per call; n8n asks for the next page (with our cursor as its
 * pagination token) as the user scrolls. The API has no text search, so the typed filter is
 * matched on each page here, against the label and the id.
 */
async function searchPage(
	ctx: ILoadOptionsFunctions,
	path: string,
	label: (item: IDataObject) => string,
	filter: string | undefined,
	paginationToken: string | undefined,
): Promise<INodeListSearchResult> {
	const response = await apiRequest.call(ctx, {
		method: 'GET',
		path,
		qs: { per_page: PAGE_SIZE, ...(paginationToken ? { cursor: paginationToken } : {}) },
	});
	const needle = filter?.trim().toLowerCase();
	const results = (Array.isArray(response.data) ? (response.data as IDataObject[]) : [])
		.map((item) => ({ name: label(item), value: String(item.id) }))
		.filter((entry) => !needle || entry.name.toLowerCase().includes(needle) || entry.value.toLowerCase().includes(needle));
	const meta = (response.meta ?? {}) as IDataObject;
	const next = meta.has_more === true && typeof meta.next_cursor === 'string' ? meta.next_cursor : undefined;
	return { results, paginationToken: next };
}

export async function searchTickets(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage(this, '/tickets', (t) => `${String(t.subject ?? '(no subject)')} (${String(t.id)})`, filter, paginationToken);
}

export async function searchCustomers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage(
		this,
		'/customers',
		(c) => (c.name ? `${String(c.name)} <${String(c.email)}>` : String(c.email ?? c.id)),
		filter,
		paginationToken,
	);
}
