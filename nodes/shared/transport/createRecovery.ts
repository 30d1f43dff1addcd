import { NodeApiError, sleep, type IDataObject, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { apiRequest, type RequestTrace, type RunShared } from './apiRequest';
import type { ErrorContext } from './describeApiError';
import { DEFAULT_RETRY_POLICY, retryDelayMs } from './retryPolicy';
import { parseServiceTimestamp } from '../parameters/serviceTimestamp';
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
 * Not found, the lookup waits as long as the request had run (at most a minute: the service may
 * still be working on it behind a gateway that gave up) and looks once more before sending again.
 * What remains possible: an identical record created elsewhere in the same seconds can be taken
 * for this one (then this create is missing), and a request the service processes only after
 * both lookups (more than twice as long as it already had) is sent again.
 */

export type CreatedResource = 'ticket' | 'reply' | 'customer';

/** The ids of records created or found by the items of one node run: each belongs to one item. */
export interface RunClaims {
	claimedIds?: Set<string>;
	/**
	 * The creates of this run still waiting for their answer, by what they send: a lookup first
	 * waits for identical ones, whose record it could otherwise take although their own answer is
	 * about to claim it.
	 */
	pendingCreates?: Map<string, Set<Promise<unknown>>>;
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
/** The longest a lookup waits before looking a second time (a service still processing the create). */
const SETTLE_MAX_MS = 60_000;
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
	const pending = shared.pendingCreates ?? new Map<string, Set<Promise<unknown>>>();
	const key = (id: unknown) => `${request.resource}:${String(id)}`;
	const sameRequest = `${request.resource} ${request.path} ${JSON.stringify(request.body)}`;
	// Records may only be this request's if created after its first send: a later round looks that far back too.
	let firstSentAt: number | undefined;
	let lastFailure: unknown;
	for (let round = 1; round <= MAX_ROUNDS; round++) {
		const trace: RequestTrace = {};
		firstSentAt ??= Date.now();
		const attemptStarted = Date.now();
		// The claim is part of the promise, so whoever waits for it sees the record claimed.
		const posting = apiRequest
			.call(this, {
				method: 'POST',
				path: request.path,
				body: request.body,
				itemIndex: request.itemIndex,
				context: request.context,
				limiter: shared.limiter,
				baseURL: shared.baseURL,
				timeoutMs: shared.timeoutMs,
				trace,
			})
			.then((response) => {
				const record = response.data as IDataObject;
				if (record?.id !== undefined) claimed.add(key(record.id));
				return record;
			});
		const sending = pending.get(sameRequest) ?? new Set<Promise<unknown>>();
		pending.set(sameRequest, sending.add(posting));
		try {
			const record = await posting;
			if (round > 1) log(this, request, `was sent again (attempt ${round}) and created ${request.resource} ${String(record?.id)}`);
			return record;
		} catch (error) {
			// A customer's e-mail may be taken by the create sent before, which the lookup did not see yet.
			const refusedRepeat = round > 1 && request.resource === 'customer' && (error as { httpCode?: string }).httpCode === '422';
			if (!trace.createMayExist && !refusedRepeat) throw toNodeError(this.getNode(), error, request.itemIndex);
			lastFailure = error;
		} finally {
			sending.delete(posting);
		}

		const lookUp = async () => {
			// Identical creates of this run still waiting for their answer may have made the record this lookup would take.
			await Promise.allSettled([...sending]);
			return findCreated.call(this, request, shared, firstSentAt ?? attemptStarted, claimed, lastFailure);
		};
		let found = await lookUp();
		if (!found) {
			// A gateway gives up (504, a timeout) while the service still works on the create: look
			// again after as long as the request had run, before sending it again.
			const settleMs = Math.min(SETTLE_MAX_MS, Math.max(Date.now() - attemptStarted, retryDelayMs(round, undefined, DEFAULT_RETRY_POLICY)));
			await sleep(settleMs);
			found = await lookUp();
		}
		if (found) {
			log(this, request, `failed (${describe(lastFailure)}) but had been processed: found ${request.resource} ${String(found.id)} and returned it`);
			return found;
		}
		if ((lastFailure as { httpCode?: string }).httpCode === '422') throw toNodeError(this.getNode(), lastFailure, request.itemIndex);
		if (round === MAX_ROUNDS) break;
		log(this, request, `failed (${describe(lastFailure)}) and was not processed (not among the newest ${request.resource} records, twice): sending it again`);
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
 * is older than the send time allows. The oldest match not claimed once every page is read is
 * taken, and claimed before anything else can run: a create made earlier in the run is processed
 * before identical ones sent after it, and no two items take one record.
 */
async function findCreated(
	this: IExecuteFunctions,
	request: CreateRequest,
	shared: RunShared,
	sentAt: number,
	claimed: Set<string>,
	failure: unknown,
): Promise<IDataObject | undefined> {
	// Compared with what went on the wire: JSON drops undefined and turns dates into text.
	const sent = JSON.parse(JSON.stringify(request.body)) as IDataObject;
	const matching: Array<{ record: IDataObject; createdAt: number }> = [];
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
			const records = (Array.isArray(answer.data) ? (answer.data as unknown[]) : []).filter((r): r is IDataObject => r !== null && typeof r === 'object');
			let olderSeen = false;
			let dated = 0;
			for (const record of records) {
				const createdAt = parseServiceTimestamp(record.created_at);
				if (createdAt === undefined) continue;
				dated++;
				if (createdAt < notBefore) olderSeen = true;
				else if (matches(request.resource, sent, record)) matching.push({ record, createdAt });
			}
			// Without a creation time the node cannot tell this request's record from an older twin.
			if (records.length > 0 && dated === 0) throw new Error(`the ${request.resource} records carry no readable created_at`);
			cursor = nextCursor(answer.meta);
			// Newest first: once a record is older than the request, the rest are too.
			if (olderSeen || cursor === undefined) break;
		}
	} catch (error) {
		throw new NodeApiError(this.getNode(), {} as JsonObject, {
			message: `The ${request.resource} may have been created: the service's answer left it open, and the node could not find out`,
			description: `The create failed (${describe(failure)}) in a way the service may have processed it, so it was not sent again blindly. Reading the newest ${request.resource} records to find out failed too: ${describe(error)}. Check whether the ${request.resource} exists before running this item again.`,
			itemIndex: request.itemIndex,
		});
	}
	// Oldest first; among equal times the one listed later (newest first: the older).
	let best: { record: IDataObject; createdAt: number } | undefined;
	for (const candidate of matching) {
		if (claimed.has(`${request.resource}:${String(candidate.record.id)}`)) continue;
		if (!best || candidate.createdAt <= best.createdAt) best = candidate;
	}
	if (best) claimed.add(`${request.resource}:${String(best.record.id)}`);
	return best?.record;
}

/**
 * Every field the request sent, with the same value. E-mails compare without case, texts without
 * differences in white space, numbers with numbers written as text: services store them as they like.
 */
function matches(resource: CreatedResource, body: IDataObject, record: IDataObject): boolean {
	for (const [field, sent] of Object.entries(body)) {
		const found = record[field];
		if (field === 'email') {
			if (typeof found !== 'string' || found.toLowerCase() !== String(sent).toLowerCase()) return false;
		} else if (field === 'customer' && resource === 'ticket') {
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

const spaced = (text: string): string => text.replace(/\s+/g, ' ').trim();

function sameJson(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a === 'string' && typeof b === 'string') return spaced(a) === spaced(b);
	if (typeof a === 'number' && typeof b === 'string') return b.trim() !== '' && Number(b) === a;
	if (typeof a === 'string' && typeof b === 'number') return a.trim() !== '' && Number(a) === b;
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
