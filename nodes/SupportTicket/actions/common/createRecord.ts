import { createHash, randomUUID } from 'node:crypto';

import { NodeApiError, sleep, type IDataObject, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { apiRequest, type RequestTrace, type RunShared } from '../../../shared/transport/apiRequest';
import type { ErrorContext } from '../../../shared/transport/describeApiError';
import { DEFAULT_RETRY_POLICY, retryDelayMs } from '../../../shared/transport/retryPolicy';
import { toNodeError } from '../../../shared/transport/toNodeError';
import { executionClaims, type OpenCreate } from './executionClaims';
import { findCreatedRecord, onWire, type CreatedKind } from './findCreatedRecord';

export interface CreateRequest {
	/** The POST path, e.g. `/tickets/tkt_1/replies`. */
	path: string;
	/** The list its record appears in, newest first. */
	listPath: string;
	body: IDataObject;
	itemIndex: number;
	context?: ErrorContext;
}

/** Rounds of "failed, may exist, not found, send again": at a 10 % rate of such failures, 8 in a row is one create in 10⁸. */
const MAX_ROUNDS = 8;
/** The longest a look-up waits before looking a second time (a service still processing the create). */
const SETTLE_MAX_MS = 60_000;

/**
 * One key for every attempt of this item, also when Retry On Fail runs the node again on the same input
 * (same execution, node, input run and item); another round of a loop is another input run, so another key.
 */
function idempotencyKeyFor(ctx: IExecuteFunctions, itemIndex: number): string {
	const executionId = ctx.getExecutionId();
	if (!executionId) return randomUUID();
	const node = ctx.getNode();
	const input = ctx.getExecuteData().source?.main?.[0];
	const from = input ? `${input.previousNode}:${input.previousNodeOutput ?? 0}:${input.previousNodeRun ?? 0}` : '';
	const hex = createHash('sha256').update(`${executionId}\n${node.id ?? node.name}\n${from}\n${itemIndex}`).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Sends a create once; after an answer that leaves open whether it was processed, finds the record or sends again. */
export async function createRecord(this: IExecuteFunctions, request: CreateRequest, kind: CreatedKind, shared: RunShared): Promise<IDataObject> {
	const claims = executionClaims(this);
	const idempotencyKey = idempotencyKeyFor(this, request.itemIndex);
	const self: OpenCreate = { body: request.body };
	const open = claims.open.get(request.listPath) ?? new Set<OpenCreate>();
	claims.open.set(request.listPath, open.add(self));
	let seen: Set<string> | undefined;
	let sent: IDataObject | undefined;
	let firstSentAt: number | undefined;
	let lastFailure: unknown;
	try {
		for (let round = 1; round <= MAX_ROUNDS; round++) {
			const trace: RequestTrace = {};
			firstSentAt ??= Date.now();
			const attemptStarted = Date.now();
			// The claim is part of the promise, so a look-up waiting for it sees the record claimed.
			const sending = apiRequest
				.call(this, { method: 'POST', path: request.path, body: request.body, itemIndex: request.itemIndex, context: request.context, ...shared, trace, idempotencyKey })
				.then((response) => {
					const record = response.data as IDataObject;
					if (record?.id !== undefined) claims.claimed.add(`${kind.noun}:${String(record.id)}`);
					return record;
				});
			self.sending = sending;
			try {
				const record = await sending;
				if (round > 1) log(this, request, kind, `was sent again (attempt ${round}) and created ${kind.noun} ${String(record?.id)}`);
				return record;
			} catch (error) {
				// A repeat refused as a duplicate (an e-mail taken) may be refused by the record the first attempt made.
				const refusedRepeat = round > 1 && httpCode(error) === '422';
				if (!trace.createMayExist && !refusedRepeat) throw toNodeError(this.getNode(), error, request.itemIndex);
				lastFailure = error;
			}

			sent ??= onWire(request.body);
			seen ??= new Set<string>();
			const query = { kind, listPath: request.listPath, sent, sentAt: firstSentAt, itemIndex: request.itemIndex, context: request.context, claims, self, seen };
			const lookUp = async () => {
				try {
					return await findCreatedRecord.call(this, query, shared);
				} catch (error) {
					throw lookUpFailed(this, kind, request.itemIndex, lastFailure, error);
				}
			};
			let found = await lookUp();
			if (!found) {
				// A gateway gives up (504, a timeout) while the service still works on the create: look again after as long as it had run.
				await sleep(Math.min(SETTLE_MAX_MS, Math.max(Date.now() - attemptStarted, retryDelayMs(round, undefined, DEFAULT_RETRY_POLICY))));
				found = await lookUp();
			}
			if (found) {
				log(this, request, kind, `failed (${describe(lastFailure)}) but had been processed: found ${kind.noun} ${String(found.id)} and returned it`);
				return found;
			}
			if (httpCode(lastFailure) === '422') throw toNodeError(this.getNode(), lastFailure, request.itemIndex);
			if (round < MAX_ROUNDS) log(this, request, kind, `failed (${describe(lastFailure)}) and was not found among the newest ${kind.noun} records, twice: sending it again`);
		}
	} finally {
		open.delete(self);
		if (open.size === 0) claims.open.delete(request.listPath);
	}
	const others = seen?.size ? ` (seen, but taken by other items: ${[...seen].join(', ')})` : '';
	throw new NodeApiError(this.getNode(), {} as JsonObject, {
		message: `The ${kind.noun} may have been created up to ${MAX_ROUNDS} times: the answer to each attempt was lost (last: ${describe(lastFailure)})`,
		description: `It was not found among the newest ${kind.noun} records${others}: check for it before running this item again.`,
		itemIndex: request.itemIndex,
	});
}

function lookUpFailed(ctx: IExecuteFunctions, kind: CreatedKind, itemIndex: number, failure: unknown, error: unknown): NodeApiError {
	return new NodeApiError(ctx.getNode(), {} as JsonObject, {
		message: `The ${kind.noun} may have been created: the service's answer left it open, and the node could not find out`,
		description: `The create failed (${describe(failure)}), then reading the newest ${kind.noun} records failed (${describe(error)}): check whether the ${kind.noun} exists before running this item again.`,
		itemIndex,
	});
}

const httpCode = (error: unknown): string | undefined => (error as { httpCode?: string } | undefined)?.httpCode;

function describe(error: unknown): string {
	const { message, httpCode: code } = (error ?? {}) as { message?: string; httpCode?: string };
	return message ?? (code ? `HTTP ${code}` : 'no answer');
}

function log(ctx: IExecuteFunctions, request: CreateRequest, kind: CreatedKind, what: string): void {
	ctx.logger.warn(`Support Ticket: the create of a ${kind.noun} (item ${request.itemIndex}) ${what}`, { itemIndex: request.itemIndex });
}
