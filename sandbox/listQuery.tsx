/**
 * Query-string parsing for the API. Deliberately strict, to surface client bugs early:
 * unknown parameters, repeated parameters and invalid values are 400 `invalid_parameter`
 * naming the parameter, rather than being silently ignored.
 */
import { invalidParameter } from './errors';
import type { SortOrder } from './keysetIndex';
import type { TicketSortKey } from './store';
import { TICKET_PRIORITIES, TICKET_STATUSES } from './validation';

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

const TICKET_SORT_KEYS: readonly TicketSortKey[] = ['created_at', 'updated_at'];
const SORT_ORDERS: readonly SortOrder[] = ['asc', 'desc'];
const TICKET_LIST_PARAMETERS = ['per_page', 'cursor', 'status', 'priority', 'sort_by', 'sort'];
const PAGE_PARAMETERS = ['per_page', 'cursor'];
const SORTABLE_PAGE_PARAMETERS = [...PAGE_PARAMETERS, 'sort_by', 'sort'];

export interface PageQuery {
	perPage: number;
	cursor?: string;
}

/** A reply or customer list that takes `sort_by=created_at` and `sort` (ListQuirks.pageListSort). */
export interface SortablePageQuery extends PageQuery {
	sort?: SortOrder;
}

export interface TicketListQuery extends PageQuery {
	status?: string;
	priority?: string;
	sortBy: TicketSortKey;
	sort: SortOrder;
}

/** Parses the raw query string (after `?`); a repeated parameter is rejected. */
export function parseQueryString(rawQuery: string): Map<string, string> {
	const params = new Map<string, string>();
	for (const [name, value] of new URLSearchParams(rawQuery)) {
		if (params.has(name))
			throw invalidParameter(name, `Query parameter '${name}' is repeated; send it once.`);
		params.set(name, value);
	}
	return params;
}

/** For endpoints without query parameters (single-resource reads, creates and updates). */
export function assertNoQuery(params: Map<string, string>, endpoint: string): void {
	assertKnown(params, [], endpoint);
}

export function parseTicketListQuery(
	params: Map<string, string>,
	endpoint: string,
): TicketListQuery {
	assertKnown(params, TICKET_LIST_PARAMETERS, endpoint);
	return {
		...parsePagination(params),
		status: optionalChoice(params, 'status', TICKET_STATUSES),
		priority: optionalChoice(params, 'priority', TICKET_PRIORITIES),
		sortBy: optionalChoice(params, 'sort_by', TICKET_SORT_KEYS) ?? 'created_at',
		sort: optionalChoice(params, 'sort', SORT_ORDERS) ?? 'desc',
	};
}

/** Reply and customer lists: only pagination, always created_at descending. */
export function parsePageQuery(params: Map<string, string>, endpoint: string): PageQuery {
	assertKnown(params, PAGE_PARAMETERS, endpoint);
	return parsePagination(params);
}

/** Reply and customer lists of a service that takes `sort_by=created_at` and `sort` there too. */
export function parseSortablePageQuery(
	params: Map<string, string>,
	endpoint: string,
): SortablePageQuery {
	assertKnown(params, SORTABLE_PAGE_PARAMETERS, endpoint);
	optionalChoice(params, 'sort_by', ['created_at']);
	return { ...parsePagination(params), sort: optionalChoice(params, 'sort', SORT_ORDERS) };
}

function parsePagination(params: Map<string, string>): PageQuery {
	const raw = params.get('per_page');
	let perPage = DEFAULT_PER_PAGE;
	if (raw !== undefined) {
		perPage = /^[0-9]{1,4}$/.test(raw) ? Number(raw) : NaN;
		if (!(perPage >= 1 && perPage <= MAX_PER_PAGE)) {
			throw invalidParameter(
				'per_page',
				`per_page must be an integer from 1 to ${MAX_PER_PAGE}; got '${truncate(raw)}'.`,
			);
		}
	}
	const cursor = params.get('cursor');
	return cursor === undefined ? { perPage } : { perPage, cursor };
}

function assertKnown(
	params: Map<string, string>,
	allowed: readonly string[],
	endpoint: string,
): void {
	for (const name of params.keys()) {
		if (!allowed.includes(name)) {
			const accepted =
				allowed.length > 0 ? `accepted: ${allowed.join(', ')}` : 'it accepts no query parameters';
			throw invalidParameter(
				name,
				`Unknown query parameter '${truncate(name)}' for ${endpoint}; ${accepted}.`,
			);
		}
	}
}

function optionalChoice<T extends string>(
	params: Map<string, string>,
	name: string,
	allowed: readonly T[],
): T | undefined {
	const value = params.get(name);
	if (value === undefined) return undefined;
	if (!(allowed as readonly string[]).includes(value)) {
		throw invalidParameter(
			name,
			`${name} must be one of ${allowed.join(', ')}; got '${truncate(value)}'.`,
		);
	}
	return value as T;
}

function truncate(value: string): string {
	return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
