import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestMethods,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type IPollFunctions,
	type IN8nHttpFullResponse,
	type JsonObject,
} from 'n8n-workflow';

import { toNodeError } from './toNodeError';
import { baseUrlProblem } from './baseUrl';
import type { QueryInput } from './serializeQuery';
import type { RequestLimiter } from './concurrency';
import { describeApiError, describeConnectionError, type ErrorContext } from './describeApiError';
import {
	DEFAULT_RETRY_POLICY,
	isRetryable,
	maxAttemptsFor,
	mayHaveBeenProcessed,
	parseRetryAfter,
	retryDelayMs,
	type AttemptFailure,
} from './retryPolicy';

export const API_PREFIX = '/api/v1/external';
export const CREDENTIAL_TYPE = 'supportTicketApi';

/** The n8n functions (`this`) of the three nodes' methods that call the service. */
export type ApiFunctions = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Below /api/v1/external, e.g. `/tickets`; ids already encoded. */
	path: string;
	qs?: QueryInput;
	body?: IDataObject;
	itemIndex?: number;
	/** Names the resource in a 404 message. */
	context?: ErrorContext;
	/** Shared by the items of one run when they are sent concurrently: paces every attempt. */
	limiter?: RequestLimiter;
	/** From readServiceBaseUrl, when the caller sends many requests (a list traversal, a run's items): read once, not per request. */
	baseURL?: string;
	/** Filled in for a caller that needs more than the answer's body (createRecovery.ts). */
	trace?: RequestTrace;
}

/** What apiRequest tells a caller beyond the body. */
export interface RequestTrace {
	/** The service's clock minus this machine's, from the last answer's Date header (whole seconds, so up to 1 s low). */
	serviceClockOffsetMs?: number;
	/** Set when a POST failed in a way the service may have processed it: a gateway's 502/504 or bare 503, a connection lost after sending. */
	createMayExist?: boolean;
}

/** What the items of one node run share: the limiter pacing their requests, and the Base URL read once. */
export type RunShared = Pick<ApiRequest, 'limiter' | 'baseURL'>;

/**
 * The credential's Base URL, checked. Checked here too (the credential checks it when signing), so
 * the message names the item. Every read makes n8n decrypt the credential: a traversal reads it once.
 */
export async function readServiceBaseUrl(this: ApiFunctions, itemIndex = 0): Promise<string> {
	const { baseUrl } = await this.getCredentials(CREDENTIAL_TYPE);
	const baseURL = typeof baseUrl === 'string' ? baseUrl.trim() : '';
	const problem = baseUrlProblem(baseURL);
	if (problem) {
		throw new NodeOperationError(this.getNode(), problem, {
			itemIndex,
			description: 'Open the credential, correct the Base URL and use its Test button.',
		});
	}
	return baseURL;
}

/**
 * One call to the service, signed by the credential, with the package's retry rules: transient
 * failures wait (`Retry-After` or backoff) and try again within a bounded number of attempts and
 * time; whatever is left becomes a NodeApiError that says what happened and what to do.
 */
export async function apiRequest(this: ApiFunctions, request: ApiRequest): Promise<IDataObject> {
	const policy = DEFAULT_RETRY_POLICY;
	const baseURL = request.baseURL ?? (await readServiceBaseUrl.call(this, request.itemIndex));
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL,
		url: `${API_PREFIX}${request.path}`,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	if (request.qs) options.qs = request.qs as IDataObject;
	if (request.body) options.body = request.body;

	let waitedMs = 0;
	for (let attempt = 1; ; attempt++) {
		let response: IN8nHttpFullResponse | undefined;
		let failure: AttemptFailure;
		try {
			const send = async () =>
				(await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, options)) as IN8nHttpFullResponse;
			response = await (request.limiter ? request.limiter.run(send) : send());
			const serviceNow = request.trace ? Date.parse(String(response.headers?.date)) : Number.NaN;
			if (request.trace && !Number.isNaN(serviceNow)) request.trace.serviceClockOffsetMs = serviceNow - Date.now();
			// A create's own id is unknown until the service says it; a reply's context is its ticket.
			if (response.statusCode >= 200 && response.statusCode < 300)
				return withData(response.body, request.method === 'POST' ? undefined : request.context);
			failure = { status: response.statusCode, retryAfter: response.headers?.['retry-after'] !== undefined };
		} catch (error) {
			const code = connectionErrorCode(error);
			if (!code) throw toNodeError(this.getNode(), error, request.itemIndex ?? 0);
			failure = { connectionError: code };
		}

		const retryAfterMs = response ? parseRetryAfter(response.headers?.['retry-after'], Date.now(), response.headers?.date) : undefined;
		const delay = retryDelayMs(attempt, retryAfterMs, policy);
		const retryable = isRetryable(request.method, failure) && attempt < maxAttemptsFor(failure, policy);
		const withinBudget = waitedMs + delay <= policy.budgetMs;
		if (!retryable || !withinBudget) {
			// A Retry-After beyond the budget ends here: trying earlier than asked would be refused again.
			const tooLong = retryable && retryAfterMs !== undefined ? { retryAfterMs, budgetMs: policy.budgetMs } : {};
			const mayBeProcessed = mayHaveBeenProcessed(request.method, failure);
			if (request.trace && mayBeProcessed) request.trace.createMayExist = true;
			throw toNodeApiError(
				this,
				request.method,
				failure,
				response,
				{ ...request.context, attempts: attempt, ...tooLong, ...(mayBeProcessed && 'status' in failure ? { createNotRepeated: true } : {}) },
				request.itemIndex,
			);
		}
		waitedMs += delay;
		await sleep(delay);
	}
}

/**
 * A success in the spec's envelope (`{data, meta?}`), whatever came back, so every operation's
 * item has an object: a 204 or empty body gives what is known (the id that was asked for), a
 * body without `data` is taken as the resource itself. A create is given no context: the id
 * asked for is not the new record's (a reply's context is its ticket).
 */
function withData(body: unknown, context: ErrorContext | undefined): IDataObject {
	if (Array.isArray(body)) return { data: body };
	const root = body && typeof body === 'object' ? (body as IDataObject) : {};
	if (root.data !== undefined && root.data !== null) return root;
	if (Object.keys(root).length > 0) return { ...root, data: root };
	return { data: context?.id !== undefined ? { id: context.id } : {} };
}

function connectionErrorCode(error: unknown): string | undefined {
	for (let current = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; current && depth < 4; depth++) {
		if (typeof current.code === 'string' && /^E[A-Z_]+$/.test(current.code)) return current.code;
		current = current.cause as typeof current;
	}
	return undefined;
}

function toNodeApiError(
	ctx: ApiFunctions,
	method: string,
	failure: AttemptFailure,
	response: IN8nHttpFullResponse | undefined,
	context: ErrorContext,
	itemIndex: number | undefined,
): NodeApiError {
	if ('connectionError' in failure) {
		const { message, description } = describeConnectionError(failure.connectionError, method, context.attempts ?? 1);
		// Not under `code`: NodeApiError would swap the message for its generic text for that code.
		return new NodeApiError(ctx.getNode(), { network_error: failure.connectionError } as JsonObject, {
			message,
			description,
			itemIndex,
		});
	}
	const { message, description } = describeApiError(failure.status, response?.body, context);
	const body = response?.body && typeof response.body === 'object' ? (response.body as JsonObject) : {};
	return new NodeApiError(ctx.getNode(), body, {
		message,
		description,
		httpCode: String(failure.status),
		itemIndex,
	});
}
