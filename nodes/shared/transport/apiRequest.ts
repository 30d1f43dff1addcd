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

import type { RunActivity } from './runActivity';
import { toNodeError } from './toNodeError';
import { CREDENTIAL_TYPE } from './credentialType';
import { readBaseUrl } from '../signing/baseUrl';
import { DEFAULT_TIMEOUT_MS } from './timeout';
import type { QueryInput } from '../signing/serializeQuery';
import type { RequestLimiter } from './concurrency';
import {
	describeApiError,
	describeConnectionError,
	describeMalformedAnswer,
	describeRedirect,
	type ErrorContext,
	type TransportDetail,
} from './describeApiError';
import {
	DEFAULT_RETRY_POLICY,
	headerText,
	isRetryable,
	maxAttemptsFor,
	mayHaveBeenProcessed,
	parseRetryAfter,
	retryDelayMs,
	type AttemptFailure,
} from './retryPolicy';

export const API_PREFIX = '/api/v1/external';

/** The n8n functions (`this`) of the three nodes' methods that call the service. */
export type ApiFunctions = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Below /api/v1/external, e.g. `/tickets`; ids already encoded. */
	path: string;
	qs?: QueryInput;
	body?: IDataObject;
	itemIndex?: number;
	context?: ErrorContext;
	/** Shared by the items of one run when they are sent concurrently: paces every attempt. */
	limiter?: RequestLimiter;
	/** From readServiceBaseUrl, read once by a caller that sends many requests. */
	baseURL?: string;
	/**
	 * How long one attempt may go without an answer (Options → Timeout);
	 * DEFAULT_TIMEOUT_MS if unset.
	 */
	timeoutMs?: number;
	/** Counts waits and retries for the run's execution hints. */
	activity?: RunActivity;
	/** A list answer must carry a `data` array (a bare array is taken as one). */
	answer?: 'list' | 'record';
	/** Filled in for a caller that needs more than the answer's body (a create's recovery). */
	trace?: RequestTrace;
	/** Sent as `Idempotency-Key`, the same on every retry of a create. */
	idempotencyKey?: string;
}

/** What apiRequest tells a caller beyond the body. */
export interface RequestTrace {
	/**
	 * The service's clock minus this machine's, from the last answer's Date header (whole seconds).
	 */
	serviceClockOffsetMs?: number;
	/**
	 * Set when a POST failed in a way the service may have processed it (see mayHaveBeenProcessed).
	 */
	createMayExist?: boolean;
}

/** What the items of one node run share. */
export type RunShared = Pick<ApiRequest, 'limiter' | 'baseURL' | 'timeoutMs' | 'activity'>;

/**
 * The credential's Base URL, checked here too so the message names the item. Each
 * read decrypts the credential: read it once.
 */
export async function readServiceBaseUrl(this: ApiFunctions, itemIndex = 0): Promise<string> {
	const { baseUrl } = await this.getCredentials(CREDENTIAL_TYPE);
	return readBaseUrl(
		baseUrl,
		(problem) =>
			new NodeOperationError(this.getNode(), problem, {
				itemIndex,
				description: 'Open the credential, correct the Base URL and use its Test button.',
			}),
	);
}

/**
 * One signed call to the service, retried by the retry
 * policy; what still fails becomes a NodeApiError.
 */
export async function apiRequest(this: ApiFunctions, request: ApiRequest): Promise<IDataObject> {
	const policy = DEFAULT_RETRY_POLICY;
	const baseURL = request.baseURL ?? (await readServiceBaseUrl.call(this, request.itemIndex));
	const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL,
		url: `${API_PREFIX}${request.path}`,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// Without it, a service that accepts the connection and never answers holds the run forever.
		timeout: timeoutMs,
		// A redirect is an answer (see describeRedirect), never followed with the signed request.
		disableFollowRedirect: true,
	};
	if (request.qs) options.qs = request.qs as IDataObject;
	if (request.body) options.body = request.body;
	if (request.idempotencyKey !== undefined)
		options.headers = { 'Idempotency-Key': request.idempotencyKey };
	const isCreate = request.method === 'POST';

	let waitedMs = 0;
	for (let attempt = 1; ; attempt++) {
		let response: IN8nHttpFullResponse | undefined;
		let failure: AttemptFailure;
		let transport: TransportDetail | undefined;
		try {
			const send = async () =>
				(await this.helpers.httpRequestWithAuthentication.call(
					this,
					CREDENTIAL_TYPE,
					options,
				)) as IN8nHttpFullResponse;
			response = await (request.limiter ? request.limiter.run(send) : send());
			if (request.trace) {
				const serviceNow = Date.parse(String(response.headers?.date));
				if (!Number.isNaN(serviceNow)) request.trace.serviceClockOffsetMs = serviceNow - Date.now();
			}
			if (response.statusCode >= 200 && response.statusCode < 300)
				return readSuccess(this, request, response, isCreate);
			if (response.statusCode >= 300 && response.statusCode < 400)
				throw redirectError(this, request, baseURL, response);
			// Only a Retry-After the node can read says the service did not process the request.
			failure = {
				status: response.statusCode,
				retryAfter:
					parseRetryAfter(response.headers?.['retry-after'], Date.now(), response.headers?.date) !==
					undefined,
			};
		} catch (error) {
			if (response) throw toNodeError(this.getNode(), error, request.itemIndex ?? 0);
			transport = transportFailure(error, timeoutMs, baseURL);
			if (!transport) throw toNodeError(this.getNode(), error, request.itemIndex ?? 0);
			failure = { connectionError: transport.policyCode };
		}

		const retryAfterMs = response
			? parseRetryAfter(response.headers?.['retry-after'], Date.now(), response.headers?.date)
			: undefined;
		const delay = retryDelayMs(attempt, retryAfterMs, policy);
		const retryable =
			isRetryable(request.method, failure) && attempt < maxAttemptsFor(failure, policy);
		const withinBudget = waitedMs + delay <= policy.budgetMs;
		if (!retryable || !withinBudget) {
			// Out of time: on a Retry-After beyond the budget (trying earlier would be
			// refused again), or on the waits themselves.
			const askedTooLong = retryAfterMs !== undefined && retryAfterMs > policy.budgetMs;
			const budget = retryable ? (askedTooLong ? { retryAfterMs } : { waitedMs }) : {};
			if (request.trace && mayHaveBeenProcessed(request.method, failure))
				request.trace.createMayExist = true;
			throw toNodeApiError(
				this,
				failure,
				transport,
				response,
				{ ...request.context, attempts: attempt, ...budget },
				request.itemIndex,
			);
		}
		waitedMs += delay;
		const rateLimited =
			'status' in failure && (failure.status === 429 || failure.retryAfter === true);
		if (rateLimited) request.activity?.note('rateLimitWaitMs', delay);
		else request.activity?.note('retries');
		await sleep(delay);
	}
}

/**
 * A 2xx answer, checked: a malformed one is an error, never an empty result (a web app may
 * answer 200 to everything; docs/api.md#answers).
 */
function readSuccess(
	ctx: ApiFunctions,
	request: ApiRequest,
	response: IN8nHttpFullResponse,
	isCreate: boolean,
): IDataObject {
	const { body } = response;
	const contentType = headerText(response.headers?.['content-type']);
	const empty =
		body === undefined || body === null || (typeof body === 'string' && body.trim() === '');
	let problem: 'notJson' | 'noDataArray' | 'notRecord' | undefined;
	if (empty) problem = request.answer === 'list' ? 'noDataArray' : undefined;
	else if (typeof body !== 'object' || body instanceof Uint8Array) problem = 'notJson';
	else if (request.answer === 'list')
		problem =
			Array.isArray(body) || Array.isArray((body as IDataObject).data) ? undefined : 'noDataArray';
	else if (Array.isArray(body)) problem = 'notRecord';
	if (!problem) {
		// A create's own id is unknown until the service says it; a reply's context is its ticket.
		return withData(body, isCreate ? undefined : request.context);
	}
	const { message, description } = describeMalformedAnswer(
		problem,
		contentType,
		body,
		request.context ?? {},
		isCreate,
	);
	const error = new NodeApiError(ctx.getNode(), {} as JsonObject, {
		message,
		description,
		httpCode: String(response.statusCode),
		itemIndex: request.itemIndex,
	});
	throw error;
}

/** A 3xx is never followed with a signed request: the error says where the service points to. */
function redirectError(
	ctx: ApiFunctions,
	request: ApiRequest,
	baseURL: string,
	response: IN8nHttpFullResponse,
): NodeApiError {
	const requested = `${baseURL.replace(/\/+$/, '')}${API_PREFIX}${request.path}`;
	const { message, description } = describeRedirect(
		response.statusCode,
		headerText(response.headers?.location),
		requested,
		API_PREFIX,
	);
	return new NodeApiError(ctx.getNode(), {} as JsonObject, {
		message,
		description,
		httpCode: String(response.statusCode),
		itemIndex: request.itemIndex,
	});
}

/**
 * A success in the spec's envelope (`{data, meta?}`), whatever came back; an empty body
 * gives the id asked for (docs/api.md#answers).
 */
function withData(body: unknown, context: ErrorContext | undefined): IDataObject {
	if (Array.isArray(body)) return { data: body };
	const root = body && typeof body === 'object' ? (body as IDataObject) : {};
	if (root.data !== undefined && root.data !== null) return root;
	if (Object.keys(root).length > 0) return { ...root, data: root };
	return { data: context?.id !== undefined ? { id: context.id } : {} };
}

/**
 * Codes of an answer that started and was cut off before
 * its end (axios: "stream has been aborted").
 */
const CUT_OFF_CODES = ['ERR_BAD_RESPONSE', 'ERR_STREAM_PREMATURE_CLOSE'];

/**
 * A request that got no complete answer (undefined for any other error); a timeout counts as
 * ETIMEDOUT, a cut-off answer as ECONNRESET.
 */
function transportFailure(
	error: unknown,
	timeoutMs: number,
	baseURL: string,
): TransportDetail | undefined {
	for (
		let current = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined,
			depth = 0;
		current && depth < 4;
		depth++
	) {
		const code = current.code;
		if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) {
			const message = typeof current.message === 'string' ? current.message : '';
			if ((code === 'ECONNABORTED' || code === 'ETIMEDOUT') && /timeout/i.test(message))
				return { code, policyCode: 'ETIMEDOUT', timeoutMs };
			if (CUT_OFF_CODES.includes(code)) return { code, policyCode: 'ECONNRESET', cutOff: true };
			return { code, policyCode: code, host: hostOf(baseURL) };
		}
		current = current.cause as typeof current;
	}
	return undefined;
}

/** host:port of the Base URL, with the port the scheme implies when it names none. */
function hostOf(baseURL: string): string | undefined {
	if (!URL.canParse(baseURL)) return undefined;
	const { hostname, port, protocol } = new URL(baseURL);
	return `${hostname}:${port || (protocol === 'https:' ? '443' : '80')}`;
}

function toNodeApiError(
	ctx: ApiFunctions,
	failure: AttemptFailure,
	transport: TransportDetail | undefined,
	response: IN8nHttpFullResponse | undefined,
	context: ErrorContext,
	itemIndex: number | undefined,
): NodeApiError {
	if ('connectionError' in failure) {
		const code = transport?.code ?? failure.connectionError;
		const { message, description } = describeConnectionError(
			code,
			context.attempts ?? 1,
			transport,
		);
		// Not under `code`: NodeApiError would swap the message for its generic text for that code.
		return new NodeApiError(ctx.getNode(), { network_error: code } as JsonObject, {
			message,
			description,
			itemIndex,
		});
	}
	const { message, description, cursorRejected } = describeApiError(
		failure.status,
		response?.body,
		context,
	);
	const body =
		response?.body && typeof response.body === 'object' ? (response.body as JsonObject) : {};
	const error = new NodeApiError(ctx.getNode(), body, {
		message,
		description,
		httpCode: String(failure.status),
		itemIndex,
	});
	return cursorRejected ? Object.assign(error, { cursorRejected }) : error;
}
