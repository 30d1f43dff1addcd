/**
 * The ten endpoints (docs/api.md#endpoints), under /api/v1/external.
 *
 * Order of checks for every request (the first failure answers):
 *   latency → 401 auth → injected 429/503 → 404 unknown route → 405 method → 413 body size
 *   → 400 query parameters → 404 unknown id → 415 content type → 400 invalid JSON → 422 fields
 */
import type { IncomingMessage } from 'node:http';
import { verifyRequestSignature } from './auth';
import type { CursorCodec } from './cursor';
import { ApiError, notFound } from './errors';
import { type FaultInjector, isProcessedFault } from './faults';
import { type HttpResponse, isJsonContentType, MAX_BODY_BYTES, type RequestBody } from './http';
import type { IdempotencyKeys } from './idempotencyKeys';
import {
	assertNoQuery,
	parsePageQuery,
	parseQueryString,
	parseSortablePageQuery,
	parseTicketListQuery,
	type PageQuery,
} from './listQuery';
import type { SortOrder } from './keysetIndex';
import type { RequestLogEntry } from './requestLog';
import type { Page, SandboxStore } from './store';
import { errorStatus, reshapeSuccess, type ResponseShape } from './responseShape';
import type { CancellableTimers } from './timers';
import { isJsonObject, type JsonObject } from './validation';

export const API_PREFIX = '/api/v1/external';

export interface ApiContext {
	store: SandboxStore;
	cursors: CursorCodec;
	faults: FaultInjector;
	timers: CancellableTimers;
	/** API key -> secret. */
	keys: ReadonlyMap<string, string>;
	now: () => number;
	maxSkewSeconds: number;
	isStopped: () => boolean;
	/** Shapes of successful answers (responseShape.tsx); default: the spec's (docs/api.md#answers). */
	responseShape: ResponseShape;
	/** Set when the sandbox honours `Idempotency-Key` on creates (off by default: many services ignore it). */
	idempotencyKeys?: IdempotencyKeys;
}

type RouteName = 'tickets' | 'ticket' | 'replies' | 'customers' | 'customer';

interface Route {
	name: RouteName;
	/** Decoded id from the path, for single resources and replies. */
	id: string;
	/** Path pattern, for messages. */
	pattern: string;
}

const ALLOWED_METHODS: Record<RouteName, readonly string[]> = {
	tickets: ['GET', 'POST'],
	ticket: ['GET', 'PATCH'],
	replies: ['GET', 'POST'],
	customers: ['GET', 'POST'],
	customer: ['GET', 'PATCH'],
};

/** Handles one non-admin request; undefined means the sandbox stopped meanwhile (drop it). */
export async function handleApiRequest(
	context: ApiContext,
	request: IncomingMessage,
	body: RequestBody,
	entry: RequestLogEntry,
): Promise<HttpResponse | undefined> {
	await context.timers.sleep(context.faults.latencyMs());
	if (context.isStopped()) return undefined;
	const answer = answerOf(context, request, body, entry);
	// Processed, and then the answer is lost: a gateway's bare 503, or no answer at all.
	if (entry.fault === 'processed-drop') return undefined;
	if (entry.fault === 'processed-503')
		return withDate(context, {
			status: 503,
			body: context.faults.error('processed-503', context.now()).toBody(),
		});
	return withDate(context, answer);
}

/** Every answer carries the service's clock in `Date`, as a real service's would (Node's own would be the machine's clock). */
function withDate(context: ApiContext, answer: HttpResponse): HttpResponse {
	return { ...answer, headers: { date: new Date(context.now()).toUTCString(), ...answer.headers } };
}

function answerOf(
	context: ApiContext,
	request: IncomingMessage,
	body: RequestBody,
	entry: RequestLogEntry,
): HttpResponse {
	try {
		return reshapeSuccess(route(context, request, body, entry), context.responseShape);
	} catch (error) {
		if (!(error instanceof ApiError)) throw error;
		entry.errorCode = error.code;
		if (error.status === 401) entry.authError = error.code;
		return {
			status: errorStatus(error, context.responseShape),
			body: error.toBody(),
			headers: error.headers,
		};
	}
}

function route(
	context: ApiContext,
	request: IncomingMessage,
	body: RequestBody,
	entry: RequestLogEntry,
): HttpResponse {
	const method = request.method ?? 'GET';
	const target = request.url ?? '/';
	const queryStart = target.indexOf('?');
	const pathname = queryStart === -1 ? target : target.slice(0, queryStart);
	const rawQuery = queryStart === -1 ? '' : target.slice(queryStart + 1);

	if (pathname !== '/api' && !pathname.startsWith('/api/')) {
		throw new ApiError(
			404,
			'not_found',
			`No route for ${method} ${pathname}; API paths start with ${API_PREFIX}.`,
		);
	}

	verifyRequestSignature(
		{ method, path: target, headers: request.headers, bodySha256: body.sha256 },
		{ keys: context.keys, nowMs: context.now(), maxSkewSeconds: context.maxSkewSeconds },
	);

	const throttled = context.faults.throttle(context.now());
	if (throttled) {
		entry.fault = 429;
		throw throttled;
	}
	const fault = context.faults.draw(method);
	if (fault !== undefined) {
		entry.fault = fault;
		// A processed fault lets the request through; handleApiRequest replaces its answer.
		if (!isProcessedFault(fault)) throw context.faults.error(fault, context.now());
	}

	const matched = matchRoute(pathname);
	if (matched === undefined)
		throw new ApiError(404, 'not_found', `No route for ${method} ${pathname}.`);
	const allowed = ALLOWED_METHODS[matched.name];
	if (!allowed.includes(method)) {
		throw new ApiError(
			405,
			'method_not_allowed',
			`${method} is not allowed on ${matched.pattern}; allowed: ${allowed.join(', ')}. The API defines no delete operation.`,
			{ allowed },
			{ allow: allowed.join(', ') },
		);
	}
	if (body.tooLarge) {
		throw new ApiError(
			413,
			'payload_too_large',
			`The request body is ${body.size} bytes; at most ${MAX_BODY_BYTES} bytes are accepted.`,
			{
				max_bytes: MAX_BODY_BYTES,
			},
		);
	}

	const key = entry.idempotencyKey;
	const fingerprint = `${target} ${body.sha256}`;
	const replayed =
		method === 'POST' ? context.idempotencyKeys?.replay(key, fingerprint) : undefined;
	if (replayed) return replayed;
	const created = (answer: HttpResponse): HttpResponse =>
		context.idempotencyKeys?.remember(key, fingerprint, answer) ?? answer;

	const params = parseQueryString(rawQuery);
	const endpoint = `${method} ${matched.pattern}`;
	// Only the lists take a query (paging, filters, sort).
	if (method !== 'GET' || matched.name === 'ticket' || matched.name === 'customer')
		assertNoQuery(params, endpoint);
	const { store } = context;
	const id = matched.id;
	switch (`${method} ${matched.name}`) {
		case 'GET tickets': {
			const query = parseTicketListQuery(params, endpoint);
			const filters = {
				status: query.status,
				priority: query.priority,
				sortBy: query.sortBy,
				sort: query.sort,
			};
			const canonical = canonicalQuery('/tickets', [
				['per_page', query.perPage],
				['sort_by', query.sortBy],
				['sort', query.sort],
				['status', query.status],
				['priority', query.priority],
			]);
			const after =
				query.cursor === undefined ? undefined : context.cursors.decode(query.cursor, canonical);
			return listResponse(
				context,
				store.pageTickets(filters, query.perPage, after),
				query.perPage,
				canonical,
			);
		}
		case 'POST tickets':
			return created({ status: 201, body: { data: store.createTicket(jsonBody(request, body)) } });
		case 'GET ticket':
		case 'PATCH ticket':
			return readOrUpdate(method, store.getTicket(id), 'Ticket', id, () =>
				store.updateTicket(id, jsonBody(request, body)),
			);
		case 'GET replies': {
			const { query, sort } = pageListQuery(context, params, endpoint);
			store.assertTicketExists(id);
			const canonical = canonicalQuery(`/tickets/${id}/replies`, [
				['per_page', query.perPage],
				['sort', sort],
			]);
			const after =
				query.cursor === undefined ? undefined : context.cursors.decode(query.cursor, canonical);
			return listResponse(
				context,
				store.pageReplies(id, query.perPage, after, sort),
				query.perPage,
				canonical,
			);
		}
		case 'POST replies':
			store.assertTicketExists(id);
			return created({
				status: 201,
				body: { data: store.createReply(id, jsonBody(request, body)) },
			});
		case 'GET customers': {
			const { query, sort } = pageListQuery(context, params, endpoint);
			const canonical = canonicalQuery('/customers', [
				['per_page', query.perPage],
				['sort', sort],
			]);
			const after =
				query.cursor === undefined ? undefined : context.cursors.decode(query.cursor, canonical);
			return listResponse(
				context,
				store.pageCustomers(query.perPage, after, sort),
				query.perPage,
				canonical,
			);
		}
		case 'POST customers':
			return created({
				status: 201,
				body: { data: store.createCustomer(jsonBody(request, body)) },
			});
		case 'GET customer':
		case 'PATCH customer':
			return readOrUpdate(method, store.getCustomer(id), 'Customer', id, () =>
				store.updateCustomer(id, jsonBody(request, body)),
			);
		default:
			throw new Error(`unhandled route ${method} ${matched.name}`);
	}
}

/** A reply or customer list's query, and the order asked for where one is honoured (pageListSort). */
function pageListQuery(
	context: ApiContext,
	params: Map<string, string>,
	endpoint: string,
): { query: PageQuery; sort?: SortOrder } {
	const mode = context.store.listQuirks.pageListSort;
	if (mode === undefined) return { query: parsePageQuery(params, endpoint) };
	const query = parseSortablePageQuery(params, endpoint);
	return { query, sort: mode === 'honour' ? query.sort : undefined };
}

/** GET or PATCH of one record: an unknown id is a 404 before the body is looked at. */
function readOrUpdate<T>(
	method: string,
	found: T | undefined,
	resource: string,
	id: string,
	update: () => T,
): HttpResponse {
	if (found === undefined) throw notFound(resource, id);
	return { status: 200, body: { data: method === 'PATCH' ? update() : found } };
}

function matchRoute(pathname: string): Route | undefined {
	if (!pathname.startsWith(`${API_PREFIX}/`)) return undefined;
	const segments: string[] = [];
	for (const raw of pathname.slice(API_PREFIX.length + 1).split('/')) {
		if (raw === '') return undefined; // trailing or doubled slash
		try {
			segments.push(decodeURIComponent(raw));
		} catch {
			return undefined;
		}
	}
	const [collection, id = '', sub] = segments;
	if (collection === 'tickets') {
		if (segments.length === 1) return { name: 'tickets', id, pattern: `${API_PREFIX}/tickets` };
		if (segments.length === 2) return { name: 'ticket', id, pattern: `${API_PREFIX}/tickets/{id}` };
		if (segments.length === 3 && sub === 'replies')
			return { name: 'replies', id, pattern: `${API_PREFIX}/tickets/{ticket_id}/replies` };
	}
	if (collection === 'customers') {
		if (segments.length === 1) return { name: 'customers', id, pattern: `${API_PREFIX}/customers` };
		if (segments.length === 2)
			return { name: 'customer', id, pattern: `${API_PREFIX}/customers/{id}` };
	}
	return undefined;
}

function jsonBody(request: IncomingMessage, body: RequestBody): JsonObject {
	if (!isJsonContentType(request.headers['content-type'])) {
		throw new ApiError(
			415,
			'unsupported_media_type',
			`Request bodies must be sent with Content-Type: application/json; got ${request.headers['content-type'] === undefined ? 'no Content-Type' : `'${request.headers['content-type']}'`}.`,
		);
	}
	if (body.json === undefined)
		throw new ApiError(400, 'invalid_json', 'The request body is empty; send a JSON object.');
	if (!body.json.ok)
		throw new ApiError(
			400,
			'invalid_json',
			`The request body is not valid JSON: ${body.json.reason}.`,
		);
	if (!isJsonObject(body.json.value))
		throw new ApiError(400, 'invalid_json', 'The request body must be a JSON object.');
	return body.json.value;
}

/**
 * Canonical text of a list query, with defaults filled in: the cursor binding. Two requests
 * that mean the same thing (sort_by=created_at given or defaulted) share cursors.
 */
function canonicalQuery(
	endpoint: string,
	params: Array<[string, string | number | undefined]>,
): string {
	const parts = params
		.filter(([, value]) => value !== undefined)
		.map(([name, value]) => `${name}=${String(value)}`);
	return `${endpoint}?${parts.join('&')}`;
}

function listResponse<T>(
	context: ApiContext,
	page: Page<T>,
	perPage: number,
	canonical: string,
): HttpResponse {
	const nextCursor =
		page.hasMore && page.last ? context.cursors.encode(canonical, page.last) : null;
	return {
		status: 200,
		body: {
			data: page.items,
			meta: { per_page: perPage, has_more: page.hasMore, next_cursor: nextCursor },
		},
	};
}
