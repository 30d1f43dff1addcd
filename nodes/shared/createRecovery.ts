import { NodeApiError, sleep, type IDataObject, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { apiRequest, type RequestTrace, type RunShared } from './apiRequest';
import type { ErrorContext } from './describeApiError';
import { DEFAULT_RETRY_POLICY, retryDelayMs } from './retryPolicy';
import { parseServiceTimestamp } from './serviceTimestamp';
import { toNodeError } from './toNodeError';

/**
 * A create that failed in a way the service may have processed it (a gateway's 502/504 or 503
 * without Retry-After, a connection lost after the request went out) is neither given up nor
 * blindly repeated: the node reads the newest records of that kind and looks for the one this
 * request made, then returns it, or sends the request again when it is not there.
 *
 * A record is this request's when it has every field the request sent (with the same values) and
 * was created no earlier than the request was sent, on the service's clock (read from the answers'
 * Date header), less a small margin. Each record found is claimed by one item of the run (as are
 * the records that successful creates returned), so identical creates in one run stay distinct.
 * What remains possible: an identical record created elsewhere in the same seconds can be taken
 * for this one (then this create is missing), and a request the service processes only after the
 * lookup (a slow queue behind a gateway timeout) is sent again.
 */

export type CreatedResource = 'ticket' | 'reply' | 'customer';

/** The ids of records created or found by the items of one node run: each belongs to one item. */
export interface RunClaims {
	claimedIds?: Set<string>;
}

export interface CreateRequest {
	resource: CreatedResource;
	/** The POST path, e.g. `/tickets` or `/tickets/tkt_1/replies`; the list of that kind has the same path. */
	path: string;
	body: IDataObject;
	itemIndex: number;
	context?: ErrorContext;
}

/** Rounds of "failed, may exist, not found, send again": at a 10 % rate of such failures, 8 in a row is one create in 10⁸. */
const MAX_ROUNDS = 8;
/** Records read per lookup page, and pages at most (newest first, stopping at the first record older than the request). */
const LOOKUP_PER_PAGE = 100;
const MAX_LOOKUP_PAGES = 20;
/** How much earlier than the send time (on the service's clock) a record may say it was created: whole-second timestamps, rounding. */
const CLOCK_MARGIN_MS = 2_000;
/** The same without a Date header in the answers: the clocks may then differ by this much and the record still be found. */
const UNKNOWN_CLOCK_MARGIN_MS = 30_000;

/** The list that holds the records of this kind, newest first. */
function listPath(request: CreateRequest): string {
	return request.resource === 'customer' ? '/customers' : request.path;
}

/** Sends the create; after an ambiguous failure finds out whether it was processed (see above). */
export async function createRecord(this: IExecuteFunctions, request: CreateRequest, shared: RunShared & RunClaims): Promise<IDataObject> {
	const claimed = shared.claimedIds ?? new Set<string>();
	const key = (id: unknown) => `${request.resource}:${String(id)}`;
	// Records may only be this request's if created after its first send: a later round looks that far back too.
	let firstSentAt: number | undefined;
	let lastFailure: unknown;
	for (let round = 1; round <= MAX_ROUNDS; round++) {
		const trace: RequestTrace = {};
		firstSentAt ??= Date.now();
		try {
			const response = await apiRequest.call(this, {
				method: 'POST',
				path: request.path,
				body: request.body,
				itemIndex: request.itemIndex,
				context: request.context,
				limiter: shared.limiter,
				baseURL: shared.baseURL,
				timeoutMs: shared.timeoutMs,
				trace,
			});
			const record = response.data as IDataObject;
			if (record?.id !== undefined) claimed.add(key(record.id));
			if (round > 1) log(this, request, `was sent again (attempt ${round}) and created ${request.resource} ${String(record?.id)}`);
			return record;
		} catch (error) {
			// A customer's e-mail may be taken by the create sent before, which the lookup did not see yet.
			const refusedRepeat = round > 1 && request.resource === 'customer' && (error as { httpCode?: string }).httpCode === '422';
			if (!trace.createMayExist && !refusedRepeat) throw toNodeError(this.getNode(), error, request.itemIndex);
			lastFailure = error;
		}

		const found = await findCreated.call(this, request, shared, firstSentAt, claimed, lastFailure);
		if (found) {
			claimed.add(key(found.id));
			log(this, request, `failed (${describe(lastFailure)}) but had been processed: found ${request.resource} ${String(found.id)} and returned it`);
			return found;
		}
		if ((lastFailure as { httpCode?: string }).httpCode === '422') throw toNodeError(this.getNode(), lastFailure, request.itemIndex);
		if (round === MAX_ROUNDS) break;
		log(this, request, `failed (${describe(lastFailure)}) and was not processed (not among the newest ${request.resource} records): sending it again`);
		await sleep(retryDelayMs(round, undefined, DEFAULT_RETRY_POLICY));
	}
	const failure = lastFailure as { message?: string };
	throw new NodeApiError(this.getNode(), {} as JsonObject, {
		message: `${(failure.message ?? 'The create failed').replace(/, still after \d+ attempts/, '')}, still after ${MAX_ROUNDS} attempts`,
		description: `Each time the service's answer left open whether the ${request.resource} was created, and each time it was not among the newest ${request.resource} records, so nothing was created. The service is not processing requests reliably; try again later.`,
		itemIndex: request.itemIndex,
	});
}

/**
 * This request's record among the newest of its kind, if there: pages newest first until a record
 * is older than the send time allows. The oldest unclaimed match is taken: a create made earlier in
 * the run is processed before identical ones sent after it.
 */
async function findCreated(
	this: IExecuteFunctions,
	request: CreateRequest,
	shared: RunShared,
	sentAt: number,
	claimed: Set<string>,
	failure: unknown,
): Promise<IDataObject | undefined> {
	let best: { record: IDataObject; createdAt: number } | undefined;
	let cursor: string | undefined;
	try {
		for (let page = 1; ; page++) {
			if (page > MAX_LOOKUP_PAGES) throw new Error(`more than ${MAX_LOOKUP_PAGES * LOOKUP_PER_PAGE} ${request.resource} records are newer than the request`);
			const trace: RequestTrace = {};
			const answer = await apiRequest.call(this, {
				method: 'GET',
				path: listPath(request),
				qs: cursor === undefined ? { per_page: LOOKUP_PER_PAGE } : { per_page: LOOKUP_PER_PAGE, cursor },
				itemIndex: request.itemIndex,
				context: request.context,
				limiter: shared.limiter,
				baseURL: shared.baseURL,
				timeoutMs: shared.timeoutMs,
				answer: 'list',
				trace,
			});
			const offset = trace.serviceClockOffsetMs;
			const notBefore = sentAt + (offset ?? 0) - (offset === undefined ? UNKNOWN_CLOCK_MARGIN_MS : CLOCK_MARGIN_MS);
			const records = Array.isArray(answer.data) ? (answer.data as IDataObject[]) : [];
			let olderSeen = false;
			for (const record of records) {
				if (record === null || typeof record !== 'object') continue; // cannot be what was sent
				const createdAt = parseServiceTimestamp(record.created_at);
				if (createdAt === undefined || createdAt < notBefore) {
					olderSeen ||= createdAt !== undefined;
					continue;
				}
				if (claimed.has(`${request.resource}:${String(record.id)}`) || !matches(request, record)) continue;
				if (!best || createdAt < best.createdAt) best = { record, createdAt };
			}
			cursor = nextCursor(answer.meta);
			// Newest first: once a record is older than the request, the rest are too.
			if (olderSeen || cursor === undefined) return best?.record;
		}
	} catch (error) {
		throw new NodeApiError(this.getNode(), {} as JsonObject, {
			message: `The ${request.resource} may have been created: the service's answer left it open, and the node could not find out`,
			description: `The create failed (${describe(failure)}) in a way the service may have processed it, so it was not sent again blindly. Reading the newest ${request.resource} records to find out failed too: ${describe(error)}. Check whether the ${request.resource} exists before running this item again.`,
			itemIndex: request.itemIndex,
		});
	}
}

/** Every field the request sent, with the same value. E-mails compare without case (services store them as they like). */
function matches(request: CreateRequest, record: IDataObject): boolean {
	for (const [field, sent] of Object.entries(request.body)) {
		const found = record[field];
		if (field === 'email') {
			if (typeof found !== 'string' || found.toLowerCase() !== String(sent).toLowerCase()) return false;
		} else if (field === 'customer' && request.resource === 'ticket') {
			// The service links a ticket to an existing customer by e-mail and keeps that customer's name: only the e-mail tells.
			const email = (sent as IDataObject).email;
			const linked = (found as IDataObject | undefined)?.email;
			if (typeof linked !== 'string' || linked.toLowerCase() !== String(email).toLowerCase()) return false;
		} else if (!sameJson(found, sent)) {
			return false;
		}
	}
	return true;
}

function sameJson(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	const keysA = Object.keys(a);
	const keysB = Object.keys(b);
	if (keysA.length !== keysB.length) return false;
	return keysA.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson((a as IDataObject)[k], (b as IDataObject)[k]));
}

/** The next page's cursor, read as tolerantly as paging reads it; undefined at the end. */
function nextCursor(meta: unknown): string | undefined {
	if (!meta || typeof meta !== 'object') return undefined;
	const { has_more: flag, next_cursor: cursor } = meta as IDataObject;
	if (typeof cursor !== 'string' || cursor === '') return undefined;
	const more = flag === undefined || flag === null || flag === true || flag === 1 || (typeof flag === 'string' && ['true', '1'].includes(flag.trim().toLowerCase()));
	return more ? cursor : undefined;
}

function describe(error: unknown): string {
	const { message, httpCode } = (error ?? {}) as { message?: string; httpCode?: string };
	return message ?? (httpCode ? `HTTP ${httpCode}` : 'no answer');
}

function log(ctx: IExecuteFunctions, request: CreateRequest, what: string): void {
	ctx.logger.warn(`Support Ticket: the create of a ${request.resource} (item ${request.itemIndex}) ${what}`, { itemIndex: request.itemIndex });
}
