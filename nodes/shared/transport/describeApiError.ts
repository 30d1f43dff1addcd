/**
 * Turns a service answer that is not a success into what the user reads in n8n: what happened
 * and what to do about it. The service's own error body (commonly `{error: {code, message,
 * details}}`; "not shown" in the spec: docs/api.md#errors) is used when present and ignored when it is not.
 */
import type { IDataObject } from 'n8n-workflow';
import { NEVER_SENT_CODES } from './retryPolicy';

export interface ErrorContext {
	/** e.g. `ticket` and its id, for a 404. */
	resource?: string;
	id?: string;
	attempts?: number;
	/** How long the service asked to wait (Retry-After), when that was more than the node waits. */
	retryAfterMs?: number;
	/** The cursor came from the node's Cursor parameter (one page at a time), not from paging. */
	cursorFromParameter?: boolean;
	/** The request carried a `cursor` query parameter. */
	cursorSent?: boolean;
	/** The request is a poll trigger's: it starts again on its own at the next poll. */
	poll?: boolean;
	/** A create answered by a gateway error (502/503 without Retry-After/504): not repeated, may exist. */
	createNotRepeated?: boolean;
	/** Total time the node waits between attempts of one request. */
	budgetMs?: number;
	/** Set when that time ran out: how long the node had waited. */
	waitedMs?: number;
	/** The page of a list the request asked for (1 is the first) and how many items came before it. */
	page?: number;
	itemsBefore?: number;
}

/** What is known about a request that got no complete answer (see apiRequest's transportFailure). */
export interface TransportDetail {
	/** The error code as the HTTP client gave it. */
	code: string;
	/** The code the retry policy judges the failure by: a timeout is ETIMEDOUT, a cut-off answer ECONNRESET. */
	policyCode: string;
	/** Set when no answer came within this many milliseconds (Options → Timeout). */
	timeoutMs?: number;
	/** Set when the answer started (status and headers) and was cut off before its end. */
	cutOff?: boolean;
	/** host:port of the Base URL, for a refused connection. */
	host?: string;
}

export interface DescribedError {
	message: string;
	description: string;
	/** The service refused the page cursor the request carried (see isRejectedCursor). */
	cursorRejected?: true;
}

interface ServiceError {
	code?: string;
	message?: string;
	fields?: Record<string, unknown>;
}

function readServiceError(body: unknown): ServiceError {
	if (!body || typeof body !== 'object') return typeof body === 'string' && body ? { message: body.slice(0, 300) } : {};
	const root = body as IDataObject;
	const error = (typeof root.error === 'object' && root.error !== null ? root.error : root) as IDataObject;
	const details = (error.details ?? root.details) as IDataObject | undefined;
	const fields = (details?.fields ?? error.fields ?? root.errors) as Record<string, unknown> | undefined;
	return {
		code: typeof error.code === 'string' ? error.code : undefined,
		message: typeof error.message === 'string' ? error.message : typeof root.error === 'string' ? root.error : undefined,
		fields: fields && typeof fields === 'object' ? fields : undefined,
	};
}

function fieldMessages(fields: Record<string, unknown> | undefined): string {
	if (!fields) return '';
	return Object.entries(fields)
		.map(([field, messages]) => `${field}: ${Array.isArray(messages) ? messages.join(', ') : String(messages)}`)
		.join('; ');
}

export const REJECTED_CURSOR_MESSAGE = 'The service rejected the page cursor';

/**
 * The spec does not show how an invalid or expired cursor is refused (docs/api.md#paging), so besides a 400 naming the
 * cursor (e.g. `invalid_cursor`, `cursor_mismatch`), a 404, 410 (gone: expired) or 422
 * counts when the request carried a cursor and the error's code, message or field names mention
 * it. Without a cursor in the request, or without the mention, a 404 stays "not found" (a missing
 * ticket) and a 422 stays "rejected the data".
 */
function isRejectedCursor(status: number, service: ServiceError, context: ErrorContext): boolean {
	const mentionsCursor = [service.code, service.message, ...Object.keys(service.fields ?? {})].some((text) => /cursor/i.test(text ?? ''));
	// A poll's saved cursor is sent with the very query that worked before: a bare 400 can only be about it.
	if (status === 400) return mentionsCursor || (context.poll === true && context.cursorSent === true);
	return [404, 410, 422].includes(status) && context.cursorSent === true && mentionsCursor;
}

export function describeApiError(status: number, body: unknown, context: ErrorContext = {}): DescribedError {
	const service = readServiceError(body);
	const said = service.message ? ` The service said: "${service.message}"` : '';
	if (isRejectedCursor(status, service, context)) {
		return {
			message: REJECTED_CURSOR_MESSAGE,
			cursorRejected: true,
			description: context.poll
				? `The cursor may have expired, or the service restarted. Nothing was saved from this poll: the next poll reads these records again from the newest one, so none is skipped or emitted twice.${said}`
				: context.cursorFromParameter
					? `Cursor must be the next_cursor of the previous page of the same list, with the same filters, sort and page size; cursors may expire. Leave Cursor empty to start from the first page.${said}`
					: `A cursor is valid only for the query that produced it and may expire. Run the node again to start from the first page, and do not change filters, sort or page size while paging with a cursor.${said}`,
		};
	}
	switch (status) {
		case 400:
			return { message: `The service rejected the request as invalid (HTTP 400)`, description: `Check the node's parameters.${said}` };
		case 401:
			return {
				message: 'Authentication failed (HTTP 401): the service did not accept the request signature',
				description: `Check, in this order: the API Key and API Secret in the credential (the whole values, no spaces); the clock of the machine running n8n, since requests carry a timestamp in seconds (not milliseconds) and the service rejects one that is a few minutes off; that the Base URL is the address the service signs, without /api/v1/external, and that no proxy rewrites the path.${said}`,
			};
		case 403:
			return { message: 'Access denied (HTTP 403)', description: `The API key is valid but may not do this.${said}` };
		case 404:
			if (context.resource && context.id !== undefined) {
				return {
					message: `The ${context.resource} with ID "${context.id}" was not found`,
					description: `Check the ID, or pick the ${context.resource} from the list.${said}`,
				};
			}
			return { message: 'Not found (HTTP 404)', description: `Check the Base URL in the credential.${said}` };
		case 413:
			return { message: 'The request is too large for the service (HTTP 413)', description: `Send shorter texts or fewer custom fields.${said}` };
		case 422: {
			const fields = fieldMessages(service.fields);
			return {
				message: `The service rejected the data${fields ? `: ${fields}` : ''}`,
				description: `Correct the fields named above.${said}`,
			};
		}
		case 429:
			if (context.waitedMs !== undefined) return budgetSpent(status, context.waitedMs, context, `${RATE_LIMIT_ADVICE}${said}`);
			return {
				message: `The service is rate limiting requests (HTTP 429)${triedText(context)}${waitText(context)}`,
				description: `${waitAdvice(context)}${RATE_LIMIT_ADVICE}${said}`,
			};
		default:
			if (status >= 500 && context.waitedMs !== undefined) {
				return budgetSpent(status, context.waitedMs, context, `Try again later: the node retries a request for at most ${seconds(context.budgetMs ?? 0)}.${said}`);
			}
			if (status >= 500) {
				const notRepeated = context.createNotRepeated
					? 'The create request was not repeated: this answer can come from a gateway after the service may have processed it, so check whether it exists before running again. '
					: '';
				return {
					message: `The service had an error (HTTP ${status})${triedText(context)}${waitText(context)}`,
					description: `${notRepeated}${waitAdvice(context)}This is a problem on the service's side; try again later.${said}`,
				};
			}
			return { message: `The service answered HTTP ${status}`, description: said.trim() || 'Unexpected answer from the service.' };
	}
}

const RATE_LIMIT_ADVICE = 'Wait a little and run again, or lower the pace of the workflow (for example with a Wait node or smaller batches).';

/** The retry budget ran out on waits the service allowed (e.g. "Retry-After: 0" each time), not on one it asked for. */
function budgetSpent(status: number, waitedMs: number, { attempts }: ErrorContext, description: string): DescribedError {
	return { message: `The service answered ${status} for ${seconds(waitedMs)} (${attempts ?? 1} attempts)`, description };
}

function triedText({ attempts }: ErrorContext): string {
	return attempts && attempts > 1 ? `, still after ${attempts} attempts` : '';
}

const seconds = (ms: number) => `${Math.ceil(ms / 1000)} s`;

function waitText({ retryAfterMs }: ErrorContext): string {
	return retryAfterMs === undefined ? '' : ` and asked to wait ${seconds(retryAfterMs)} before the next attempt`;
}

function waitAdvice({ retryAfterMs, budgetMs }: ErrorContext): string {
	if (retryAfterMs === undefined) return '';
	return `The node does not wait that long on its own${budgetMs ? ` (at most ${seconds(budgetMs)} per request)` : ''}, and does not try earlier than the service asked. `;
}

/** What the user reads for these codes; the code itself stays out of the message (see below). */
const CONNECTION_PROBLEMS: Record<string, string> = {
	ECONNRESET: 'the connection was dropped',
	ECONNREFUSED: 'the connection was refused',
	ECONNABORTED: 'the connection was aborted',
	EPIPE: 'the connection was closed while sending',
	ETIMEDOUT: 'the connection timed out',
	ESOCKETTIMEDOUT: 'the connection timed out',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be looked up',
	EHOSTUNREACH: 'the host is unreachable',
};

/** Connection errors that mean the request never reached the service: nothing to check for on a create. */

const secondsText = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

/** The problem of a request that got no complete answer, as the message says it. */
function connectionProblem(code: string, detail: TransportDetail | undefined): string {
	if (detail?.timeoutMs !== undefined) return `no answer within the timeout (${secondsText(detail.timeoutMs)})`;
	if (detail?.cutOff) return 'the answer was cut off before it was complete';
	return CONNECTION_PROBLEMS[code] ?? 'the connection failed';
}

/** What happened, said for a create (why it is not repeated): lost connection, timeout or cut-off answer. */
function lostWhat(detail: TransportDetail | undefined): string {
	if (detail?.timeoutMs !== undefined) return 'after no answer came in time';
	if (detail?.cutOff) return 'after its answer was cut off';
	return 'after a lost connection';
}

/**
 * A request that got no (complete) answer. The message names no error code on purpose: n8n's
 * NodeApiError replaces a message containing one (e.g. ECONNRESET) with its generic text, which
 * for a create would wrongly advise to "retry the request immediately".
 */
export function describeConnectionError(code: string, method: string, attempts: number, detail?: TransportDetail): DescribedError {
	const message = `Could not reach the service: ${connectionProblem(code, detail)}${triedText({ attempts })}`;
	const what =
		detail?.timeoutMs !== undefined
			? `No answer came within ${secondsText(detail.timeoutMs)}, the node's Options → Timeout (default 60 s).`
			: `Network error ${code}.`;
	const where =
		code === 'ECONNREFUSED' && detail?.host
			? `${refusedText(detail.host)} Check the Base URL in the credential.`
			: detail?.timeoutMs !== undefined
				? 'Check that the service is up and reachable from n8n, or raise Options → Timeout if it is slow.'
				: method.toUpperCase() === 'POST'
					? 'Also check the Base URL in the credential and that the service is reachable from n8n.'
					: 'Check the Base URL in the credential and that the service is running and reachable from n8n.';
	if (method.toUpperCase() === 'POST' && !NEVER_SENT_CODES.includes(code)) {
		return {
			message,
			description: `${what} A create request is not repeated ${lostWhat(detail)}, because the service may have processed it: check for a duplicate before running again. ${where}`,
		};
	}
	return { message, description: `${what} ${where}` };
}

/** A refused connection, said so that the user knows what to check. */
export function refusedText(host: string): string {
	return `Nothing answers at ${host}: is the Base URL right, is the service up?`;
}

function pageText({ page, itemsBefore }: ErrorContext): string {
	if (page === undefined) return '';
	return page === 1 ? 'Page 1 of the list. ' : `Page ${page} of the list, after ${itemsBefore ?? 0} items. `;
}

const BASE_URL_ADVICE =
	'Check the Base URL in the credential: it must be the address of the Support Ticket API (without /api/v1/external), not of a web page or app. If it is right, the service or a proxy in front of it sent a broken answer; try again later.';

/**
 * A 2xx answer that is not what the API sends: not JSON at all (an HTML page, JSON cut off), a
 * list without its `data` array, or one record that is not an object.
 */
export function describeMalformedAnswer(
	problem: 'notJson' | 'noDataArray' | 'notRecord',
	contentType: string | undefined,
	body: unknown,
	context: ErrorContext = {},
): DescribedError {
	const notRepeated = context.createNotRepeated
		? 'The create request was not repeated: the service answered success, so it may have processed it; check whether it exists before running again. '
		: '';
	const description = `${pageText(context)}${notRepeated}${BASE_URL_ADVICE}`;
	if (problem === 'notJson') {
		const text = (typeof body === 'string' ? body : body instanceof Uint8Array ? new TextDecoder().decode(body) : String(body)).replace(/\s+/g, ' ').trim();
		const first = text.length > 80 ? `${text.slice(0, 80)}…` : text;
		return {
			message: `The service answered with something that is not the API's JSON: ${contentType ?? 'no content type'}, first 80 characters "${first}"`,
			description,
		};
	}
	if (problem === 'noDataArray') {
		const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
		return {
			message: 'The service answered a list without its "data" array',
			description: `${pageText(context)}${keys.length ? `The answer's top-level keys: ${keys.slice(0, 10).join(', ')}. ` : 'The answer was empty. '}${BASE_URL_ADVICE}`,
		};
	}
	return { message: 'The service answered with a list where one record was expected', description };
}

/**
 * A redirect answer. It is not followed: the signature does not cover the host, so another
 * address could replay the request to the service, and a 301/302 would turn a create into a GET.
 * When the target still holds the API path, the Base URL to set is what comes before it.
 */
export function describeRedirect(status: number, location: string | undefined, requestedUrl: string, apiPrefix: string): DescribedError {
	const description = `Requests are signed, so the node follows no redirect: another address could replay a signed request to the service, and a create would turn into a lookup. Set the Base URL to the address the service answers at itself, often https:// instead of http:// or another host name. (HTTP ${status})`;
	if (!location) return { message: `The service answered with a redirect (HTTP ${status}) without saying where to`, description };
	const target = URL.canParse(location, requestedUrl) ? new URL(location, requestedUrl) : undefined;
	if (!target) return { message: `The service redirected to ${location}: check the Base URL in the credential`, description };
	const at = target.pathname.indexOf(apiPrefix);
	if (at === -1) return { message: `The service redirected to ${target.href}: check the Base URL in the credential`, description };
	return { message: `The service redirected to ${target.href}: set the Base URL to ${target.origin}${target.pathname.slice(0, at)}`, description };
}
