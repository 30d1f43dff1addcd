import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { RequestTrace, RunShared } from '../../../shared/transport/apiRequest';
import type { ErrorContext } from '../../../shared/transport/describeApiError';
import { listPages } from '../../../shared/transport/paginate';
import { parseServiceTimestamp } from '../../../shared/parameters/serviceTimestamp';
import { unresolvedCreates, type ExecutionCreates, type KeyedCreate } from './executionCreates';

/** How a resource finds a record it created: declared beside its create operation. */
export interface CreatedKind {
	/** Names the kind in messages, e.g. `ticket`. */
	noun: string;
	/**
	 * Whether `record` may be what a create that sent `sent` made:
	 * compares only what services do not rewrite.
	 */
	identifies(sent: IDataObject, record: IDataObject): boolean;
}

export interface CreatedRecordQuery {
	kind: CreatedKind;
	/** The list the record appears in, newest first. */
	listPath: string;
	/** The body as it went on the wire. */
	sent: IDataObject;
	/** When the create was first sent, on this machine's clock. */
	sentAt: number;
	itemIndex: number;
	context?: ErrorContext;
	creates: ExecutionCreates;
	/** This create's own entry among the execution's creates. */
	self: KeyedCreate;
	/** Ids of records that could have been it but belong to other items. */
	seen: Set<string>;
}

/**
 * The record this create made, if it can be told; else the ids it cannot tell from another
 * create's.
 */
export interface CreatedRecordSearch {
	record?: IDataObject;
	/** Records this create and another with other data both fit equally well. */
	ambiguous: string[];
}

const LOOKUP_PER_PAGE = 100;
const MAX_LOOKUP_PAGES = 20;
/**
 * How much earlier than the send a record may be stamped when the
 * clocks agree: whole-second timestamps, rounding.
 */
const CREATED_AT_ROUNDING_MS = 2_000;
/**
 * How much earlier when the clocks are not known to agree (no Date
 * header, or one that differs from this machine's).
 */
const UNKNOWN_CLOCK_LOOKBACK_MS = 30_000;

interface Candidate {
	record: IDataObject;
	createdAt: number;
	agreeing: number;
	differing: number;
}

/**
 * The record this create made, if listed: identified by the resource, created after the
 * send, claimed by no other item; among several, the one agreeing most with what was sent,
 * then the oldest (identical creates run in order).
 */
export async function findCreatedRecord(
	this: IExecuteFunctions,
	query: CreatedRecordQuery,
	shared: RunShared,
): Promise<CreatedRecordSearch> {
	const candidates: Candidate[] = [];
	const trace: RequestTrace = {};
	let pages = 0;
	let newestFirst = true;
	let previousAt = Number.POSITIVE_INFINITY;
	for await (const page of listPages.call(this, {
		path: query.listPath,
		perPage: LOOKUP_PER_PAGE,
		itemIndex: query.itemIndex,
		context: query.context,
		...shared,
		trace,
	})) {
		const notBefore = earliestCreation(query.sentAt, trace.serviceClockOffsetMs);
		let olderSeen = false;
		let dated = 0;
		for (const record of page.items) {
			const createdAt = parseServiceTimestamp(record.created_at);
			if (createdAt === undefined) continue;
			dated++;
			if (createdAt > previousAt) newestFirst = false;
			previousAt = createdAt;
			if (createdAt < notBefore) olderSeen = true;
			else if (query.kind.identifies(query.sent, record))
				candidates.push({ record, createdAt, ...agreement(query.sent, record) });
		}
		// Without a creation time the node cannot tell this request's record from an older twin.
		if (page.items.length > 0 && dated === 0)
			throw new Error(`the ${query.kind.noun} records carry no readable created_at`);
		// Newest first, once a record is older than the request the rest are
		// too; a list in another order is read on.
		if ((olderSeen && newestFirst) || page.nextCursor === undefined) break;
		if (++pages >= MAX_LOOKUP_PAGES)
			throw new Error(
				`more than ${MAX_LOOKUP_PAGES * LOOKUP_PER_PAGE} ` +
					`${query.kind.noun} records to look through`,
			);
	}
	// Creates of this execution still waiting for their answer may have made records of
	// this list: their answers claim them first.
	await Promise.allSettled(
		unresolvedCreates(query.creates, query.listPath, query.self).map((other) => other.sending),
	);
	const search = choose(
		query,
		candidates,
		unresolvedCreates(query.creates, query.listPath, query.self),
	);
	if (search.record) query.creates.claimed.add(`${query.kind.noun}:${String(search.record.id)}`);
	return search;
}

/** Where the clocks are not known to agree, created_at may follow either: look further back. */
function earliestCreation(sentAt: number, offsetMs: number | undefined): number {
	const agree = offsetMs !== undefined && Math.abs(offsetMs) <= CREATED_AT_ROUNDING_MS;
	return (
		Math.min(sentAt, sentAt + (offsetMs ?? 0)) -
		(agree ? CREATED_AT_ROUNDING_MS : UNKNOWN_CLOCK_LOOKBACK_MS)
	);
}

function choose(
	query: CreatedRecordQuery,
	candidates: Candidate[],
	others: KeyedCreate[],
): CreatedRecordSearch {
	const ambiguous: string[] = [];
	const fitting: Candidate[] = [];
	let best: Candidate | undefined;
	for (const candidate of candidates) {
		const id = String(candidate.record.id);
		if (query.creates.claimed.has(`${query.kind.noun}:${id}`)) {
			query.seen.add(id);
			continue;
		}
		const rivals = others
			.map((other) => other.body)
			.filter((body) => query.kind.identifies(body, candidate.record));
		// A record that differs from what this create sent but is
		// exactly what another sent is that one's.
		if (
			candidate.differing > 0 &&
			rivals.some((body) => agreement(body, candidate.record).differing === 0)
		) {
			query.seen.add(id);
			continue;
		}
		// Another create with other data fits it as well (a helpdesk rule rewrote what tells
		// them apart): whose it is cannot be told.
		if (
			rivals.some(
				(body) =>
					!sameBody(body, query.sent) && !fitsBetter(candidate, agreement(body, candidate.record)),
			)
		) {
			ambiguous.push(id);
			continue;
		}
		fitting.push(candidate);
		const better =
			!best ||
			candidate.agreeing > best.agreeing ||
			(candidate.agreeing === best.agreeing && candidate.createdAt <= best.createdAt);
		if (better) best = candidate;
	}
	// More records fit as well as the best than this execution's identical creates explain: another
	// execution, a person or an earlier repeat made one, and which is this create's cannot be told.
	const twins = others.filter((other) => sameBody(other.body, query.sent)).length;
	const asGood = fitting.filter(
		(c) => best && c.agreeing === best.agreeing && c.differing === best.differing,
	);
	if (asGood.length > 1 + twins)
		return { ambiguous: [...ambiguous, ...asGood.map((c) => String(c.record.id))] };
	return { record: best?.record, ambiguous };
}

const fitsBetter = (ours: Candidate, theirs: { agreeing: number; differing: number }): boolean =>
	ours.differing < theirs.differing ||
	(ours.differing === theirs.differing && ours.agreeing > theirs.agreeing);

const sameBody = (a: IDataObject, b: IDataObject): boolean =>
	JSON.stringify(a) === JSON.stringify(b);

/** What the service would have had: JSON drops undefined and turns dates into text. */
export const onWire = (body: IDataObject): IDataObject =>
	JSON.parse(JSON.stringify(body)) as IDataObject;

/**
 * How many sent fields the record has with the same value, and with another: a
 * field the answer leaves out counts for neither.
 */
function agreement(
	sent: IDataObject,
	record: IDataObject,
): { agreeing: number; differing: number } {
	let agreeing = 0;
	let differing = 0;
	for (const [field, value] of Object.entries(sent)) {
		if (record[field] === undefined) continue;
		if (agrees(record[field], value)) agreeing++;
		else differing++;
	}
	return { agreeing, differing };
}

const spaced = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * Texts without differences in white space, numbers written as text, objects on the keys the
 * answer has: services store them as they like.
 */
function agrees(found: unknown, sent: unknown): boolean {
	if (found === sent) return true;
	if (typeof found === 'string' && typeof sent === 'string') return spaced(found) === spaced(sent);
	if (typeof found === 'number' && typeof sent === 'string')
		return sent.trim() !== '' && Number(sent) === found;
	if (typeof found === 'string' && typeof sent === 'number')
		return found.trim() !== '' && Number(found) === sent;
	if (typeof found !== 'object' || typeof sent !== 'object' || found === null || sent === null)
		return false;
	if (Array.isArray(found) || Array.isArray(sent)) {
		return (
			Array.isArray(found) &&
			Array.isArray(sent) &&
			found.length === sent.length &&
			found.every((item, i) => agrees(item, sent[i]))
		);
	}
	return Object.entries(sent).every(
		([key, value]) =>
			(found as IDataObject)[key] === undefined || agrees((found as IDataObject)[key], value),
	);
}

/** For `identifies`: the answer's value agrees when it has none (a list may leave fields out). */
export function sameEmail(found: unknown, sent: unknown): boolean {
	return (
		found === undefined ||
		(typeof found === 'string' && found.toLowerCase() === String(sent).toLowerCase())
	);
}

export function sameText(found: unknown, sent: unknown): boolean {
	return (
		found === undefined || (typeof found === 'string' && spaced(found) === spaced(String(sent)))
	);
}
