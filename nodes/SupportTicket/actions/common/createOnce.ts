import {
	NodeApiError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type JsonObject,
} from 'n8n-workflow';

import {
	apiRequest,
	type RequestTrace,
	type RunShared,
} from '../../../shared/transport/apiRequest';
import type { ErrorContext } from '../../../shared/transport/describeApiError';
import { DEFAULT_RETRY_POLICY, retryDelayMs } from '../../../shared/transport/retryPolicy';
import { toNodeError } from '../../../shared/transport/toNodeError';
import { executionCreates, type ExecutionCreates, type KeyedCreate } from './executionCreates';
import {
	findCreatedRecord,
	onWire,
	type CreatedKind,
	type CreatedRecordSearch,
} from './findCreatedRecord';
import { idempotencyKeyFor } from './idempotencyKey';

export interface CreateRequest {
	/** The POST path, e.g. `/tickets/tkt_1/replies`. */
	path: string;
	/** The list its record appears in, newest first. */
	listPath: string;
	body: IDataObject;
	itemIndex: number;
	context?: ErrorContext;
}

/**
 * Rounds of "failed, may exist, not found, send again": at a 10 % rate of such
 * failures, 8 in a row is one create in 10⁸.
 */
const MAX_ROUNDS = 8;
/**
 * The longest a look-up waits before looking a second time (a service still processing the create).
 */
const SETTLE_MAX_MS = 60_000;

/** One try of a create (a node run of its item), across its rounds of sending and looking. */
interface CreateTry {
	request: CreateRequest;
	kind: CreatedKind;
	shared: RunShared;
	creates: ExecutionCreates;
	key: string;
	self: KeyedCreate;
	/** Set once any answer left open whether the service processed it. */
	mayExist: boolean;
	/** The last such answer in this try. */
	lastFailure?: unknown;
	/** Ids of records that could have been it but belong to other items. */
	seen: Set<string>;
}

/**
 * Sends a create once; after an answer that leaves open whether it was
 * processed, finds the record or sends again.
 */
export async function createOnce(
	this: IExecuteFunctions,
	request: CreateRequest,
	kind: CreatedKind,
	shared: RunShared,
): Promise<IDataObject> {
	const creates = executionCreates(this);
	// Retry On Fail runs the item again under the same key: what that key made or sent is known.
	const key = idempotencyKeyFor(this, request.itemIndex, creates);
	const earlier = creates.byKey.get(key);
	if (earlier?.record) return returnEarlierRecord(this, request, kind, shared, earlier.record);
	if (earlier?.madeUnread) throw madeUnread(this, kind, request.itemIndex);
	// A key stands for one request: a repeat sends what was first sent, even
	// where an expression now gives another value.
	const self: KeyedCreate = earlier ?? {
		listPath: request.listPath,
		body: onWire(request.body),
		sentAt: Date.now(),
	};
	creates.byKey.set(key, self);
	const create: CreateTry = {
		request,
		kind,
		shared,
		creates,
		key,
		self,
		mayExist: earlier !== undefined,
		seen: new Set(),
	};
	try {
		// An earlier try left it open: look for its record before sending.
		self.record = await sendOrFind.call(this, create, { lookFirst: earlier !== undefined });
		return self.record;
	} finally {
		keepWhatLaterTriesNeed(create);
	}
}

function returnEarlierRecord(
	ctx: IExecuteFunctions,
	request: CreateRequest,
	kind: CreatedKind,
	shared: RunShared,
	record: IDataObject,
): IDataObject {
	shared.activity?.note('createsFromEarlierTry');
	log(
		ctx,
		request,
		kind,
		'had been made in an earlier try of this execution: returned ' +
			`${kind.noun} ${String(record.id)} without sending it again`,
	);
	return record;
}

function keepWhatLaterTriesNeed({ creates, key, self, mayExist }: CreateTry): void {
	self.sending = undefined;
	// Made: only the record is needed from now on.
	if (self.record) self.body = {};
	// Refused outright: nothing exists under this key, and a later try may send other data with it.
	else if (!mayExist && !self.madeUnread) creates.byKey.delete(key);
}

async function sendOrFind(
	this: IExecuteFunctions,
	create: CreateTry,
	{ lookFirst }: { lookFirst: boolean },
): Promise<IDataObject> {
	const { request, kind, shared } = create;
	for (let round = 1; round <= MAX_ROUNDS; round++) {
		const roundStarted = Date.now();
		if (round > 1 || !lookFirst) {
			const answer = await send.call(this, create);
			if (answer) {
				if (round > 1) {
					const made = `created ${kind.noun} ${String(answer.record?.id)}`;
					log(this, request, kind, `was sent again (attempt ${round}) and ${made}`);
				}
				return answer.record;
			}
		}
		const found = await findRecord.call(this, create, round, roundStarted);
		if (found.record) {
			shared.activity?.note('createsFound');
			log(
				this,
				request,
				kind,
				`failed (${describe(create.lastFailure)}) but had been processed: ` +
					`found ${kind.noun} ${String(found.record.id)} and returned it`,
			);
			return found.record;
		}
		throwUnlessWorthSendingAgain(this, create, found);
		if (round < MAX_ROUNDS) {
			shared.activity?.note('createsSentAgain');
			log(
				this,
				request,
				kind,
				`failed (${describe(create.lastFailure)}) and was not found ` +
					`among the newest ${kind.noun} records: sending it again`,
			);
		}
	}
	throw mayBeCreatedManyTimes(this, create);
}

/**
 * POSTs under the key: the service's answer, or undefined when it
 * left open whether the create was processed.
 */
async function send(
	this: IExecuteFunctions,
	create: CreateTry,
): Promise<{ record: IDataObject } | undefined> {
	const { request, kind, shared, creates, key, self } = create;
	const trace: RequestTrace = {};
	// The claim is part of the promise, so a look-up waiting for it sees the record claimed.
	const sending = apiRequest
		.call(this, {
			method: 'POST',
			path: request.path,
			body: self.body,
			itemIndex: request.itemIndex,
			context: request.context,
			...shared,
			trace,
			idempotencyKey: key,
		})
		.then((response) => {
			const record = response.data as IDataObject;
			if (record?.id !== undefined) creates.claimed.add(`${kind.noun}:${String(record.id)}`);
			return record;
		});
	self.sending = sending;
	try {
		return { record: await sending };
	} catch (error) {
		// A success whose body the node cannot read: the record exists, so no try sends it again.
		if (httpCode(error)?.startsWith('2')) self.madeUnread = true;
		// A repeat refused as a duplicate (an e-mail taken) may be
		// refused by the record the first attempt made.
		const refusedRepeat = create.mayExist && httpCode(error) === '422';
		if (!trace.createMayExist && !refusedRepeat)
			throw toNodeError(this.getNode(), error, request.itemIndex);
		create.mayExist = true;
		create.lastFailure = error;
		return undefined;
	}
}

/**
 * Looks for the record; when nothing fits after a send failed, looks once
 * more after the service had time to finish.
 */
async function findRecord(
	this: IExecuteFunctions,
	create: CreateTry,
	round: number,
	roundStarted: number,
): Promise<CreatedRecordSearch> {
	let found = await lookUp.call(this, create);
	if (!found.record && found.ambiguous.length === 0 && create.lastFailure !== undefined) {
		// A gateway gives up (504, a timeout) while the service still works on the create:
		// look again after as long as it had run.
		const ran = Date.now() - roundStarted;
		await sleep(
			Math.min(SETTLE_MAX_MS, Math.max(ran, retryDelayMs(round, undefined, DEFAULT_RETRY_POLICY))),
		);
		found = await lookUp.call(this, create);
	}
	return found;
}

async function lookUp(this: IExecuteFunctions, create: CreateTry): Promise<CreatedRecordSearch> {
	const { request, kind, shared, creates, self, seen } = create;
	const query = {
		kind,
		listPath: request.listPath,
		sent: self.body,
		sentAt: self.sentAt,
		itemIndex: request.itemIndex,
		context: request.context,
		creates,
		self,
		seen,
	};
	try {
		return await findCreatedRecord.call(this, query, shared);
	} catch (error) {
		throw lookUpFailed(this, kind, request.itemIndex, create.lastFailure, error);
	}
}

/**
 * Not found: throws where sending again would not help (records it cannot tell
 * apart, a refusal, an error in the service).
 */
function throwUnlessWorthSendingAgain(
	ctx: IExecuteFunctions,
	{ kind, request, lastFailure }: CreateTry,
	found: CreatedRecordSearch,
): void {
	if (found.ambiguous.length > 0)
		throw cannotTell(ctx, kind, request.itemIndex, lastFailure, found.ambiguous);
	if (httpCode(lastFailure) === '422')
		throw toNodeError(ctx.getNode(), lastFailure, request.itemIndex);
	// A gateway's or a connection's failure is worth sending
	// again; an error in the service itself is not.
	if (httpCode(lastFailure) === '500') throw notFound(ctx, kind, request.itemIndex);
}

function mayBeCreatedManyTimes(
	ctx: IExecuteFunctions,
	{ kind, request, lastFailure, seen }: CreateTry,
): NodeApiError {
	const others = seen.size ? ` (seen, but taken by other items: ${[...seen].join(', ')})` : '';
	return new NodeApiError(ctx.getNode(), {} as JsonObject, {
		message:
			`The ${kind.noun} may have been created up to ${MAX_ROUNDS} times: ` +
			`the answer to each attempt was lost (last: ${describe(lastFailure)})`,
		description:
			`It was not found among the newest ${kind.noun} ` +
			`records${others}: check for it before running this item again.`,
		itemIndex: request.itemIndex,
	});
}

function madeUnread(ctx: IExecuteFunctions, kind: CreatedKind, itemIndex: number): NodeApiError {
	return new NodeApiError(ctx.getNode(), {} as JsonObject, {
		message:
			`The ${kind.noun} was created in an earlier ` +
			"try, but the service's answer could not be read",
		description:
			`It is not sent again. Find the ${kind.noun} in the helpdesk; ` +
			"the earlier try's error says what the service answered.",
		itemIndex,
	});
}

function notFound(ctx: IExecuteFunctions, kind: CreatedKind, itemIndex: number): NodeApiError {
	return new NodeApiError(ctx.getNode(), {} as JsonObject, {
		message:
			`The ${kind.noun} may have been created: the service answered 500 ` +
			`(an error on its side), and the ${kind.noun} is not listed (yet)`,
		description:
			`Check whether the ${kind.noun} exists before running this item again. ` +
			'Retry On Fail looks for it first, then repeats the same request.',
		httpCode: '500',
		itemIndex,
	});
}

function cannotTell(
	ctx: IExecuteFunctions,
	kind: CreatedKind,
	itemIndex: number,
	failure: unknown,
	ids: string[],
): NodeApiError {
	return new NodeApiError(ctx.getNode(), {} as JsonObject, {
		message: `The ${kind.noun} may have been created: ${ids.join(', ')} could each be this item's`,
		description:
			`The create failed (${describe(failure)}), and more than one ${kind.noun} ` +
			'fits what it sent (another item or execution, or a rule that rewrote what ' +
			"tells them apart). Check which is this item's before running it again.",
		itemIndex,
	});
}

function lookUpFailed(
	ctx: IExecuteFunctions,
	kind: CreatedKind,
	itemIndex: number,
	failure: unknown,
	error: unknown,
): NodeApiError {
	return new NodeApiError(ctx.getNode(), {} as JsonObject, {
		message:
			`The ${kind.noun} may have been created: the service's ` +
			'answer left it open, and the node could not find out',
		description:
			`The create failed (${describe(failure)}), then reading the ` +
			`newest ${kind.noun} records failed (${describe(error)}): check ` +
			`whether the ${kind.noun} exists before running this item again.`,
		itemIndex,
	});
}

const httpCode = (error: unknown): string | undefined =>
	(error as { httpCode?: string } | undefined)?.httpCode;

function describe(error: unknown): string {
	if (error === undefined) return 'in an earlier try';
	const { message, httpCode: code } = error as { message?: string; httpCode?: string };
	return message ?? (code ? `HTTP ${code}` : 'no answer');
}

function log(
	ctx: IExecuteFunctions,
	request: CreateRequest,
	kind: CreatedKind,
	what: string,
): void {
	ctx.logger.warn(
		`Support Ticket: the create of a ${kind.noun} (item ${request.itemIndex}) ${what}`,
		{ itemIndex: request.itemIndex },
	);
}
