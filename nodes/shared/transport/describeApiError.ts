/**
 * Turns a failed answer into what the user reads: what happened, then what to do. The service's own
 * error text (docs/api.md#errors) is quoted when present.
 */
import type { IDataObject } from 'n8n-workflow';
import { BASE_URL_ADVICE } from '../signing/baseUrl';
import { DEFAULT_RETRY_POLICY } from './retryPolicy';

export interface ErrorContext {
	/** Names the record in a 404, e.g. `ticket` and its id. */
	resource?: string;
	id?: string;
	attempts?: number;
	/** The service asked to wait this long (Retry-After), more than the node waits in all. */
	retryAfterMs?: number;
	/** Set when the node's time for retries ran out: how long it had waited. */
	waitedMs?: number;
	/**
	 * The request carried a page cursor: the caller's (the Cursor parameter, a
	 * poll's saved one) or the previous page's.
	 */
	cursorFrom?: 'caller' | 'previousPage';
	/** A poll trigger's request: the next poll starts over on its own. */
	poll?: boolean;
	/** The page of a list (1 is the first) and how many items came before it. */
	page?: number;
	itemsBefore?: number;
	/** One Page per Run: a new run starts at the Cursor parameter; getMany names the page. */
	onePagePerRun?: true;
}

/**
 * What is known about a request that got no complete answer (see apiRequest's transportFailure).
 */
export interface TransportDetail {
	/** The error code as the HTTP client gave it. */
	code: string;
	/**
	 * The code the retry policy judges the failure by: a timeout
	 * is ETIMEDOUT, a cut-off answer ECONNRESET.
	 */
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
	if (!body || typeof body !== 'object')
		return typeof body === 'string' && body ? { message: body.slice(0, 300) } : {};
	const root = body as IDataObject;
	const error = (
		typeof root.error === 'object' && root.error !== null ? root.error : root
	) as IDataObject;
	const details = (error.details ?? root.details) as IDataObject | undefined;
	const fields = (details?.fields ?? error.fields ?? root.errors) as
		| Record<string, unknown>
		| undefined;
	return {
		code: typeof error.code === 'string' ? error.code : undefined,
		message:
			typeof error.message === 'string'
				? error.message
				: typeof root.error === 'string'
					? root.error
					: undefined,
		fields: fields && typeof fields === 'object' ? fields : undefined,
	};
}

function fieldMessages(fields: Record<string, unknown> | undefined): string {
	if (!fields) return '';
	return Object.entries(fields)
		.map(
			([field, messages]) =>
				`${field}: ${Array.isArray(messages) ? messages.join(', ') : String(messages)}`,
		)
		.join('; ');
}

const REJECTED_CURSOR_MESSAGE = 'The service rejected the page cursor';

/** What a new run does: Return All starts over, One Page per Run starts at its Cursor. */
const CURSOR_REFUSED =
	'The cursor may have expired. Run the node again to start from the first page.';
const CURSOR_REFUSED_IN_RUN =
	'The service refused the cursor it had given for this page (expired, or the service ' +
	'restarted). If a new run is refused too, clear Cursor to start from the first page.';

/**
 * The API does not show how a bad cursor is refused (docs/api.md#paging): a 404,
 * 410 or 422 counts only when the request carried a cursor and the error mentions
 * it, so a missing ticket stays "not found".
 */
function isRejectedCursor(status: number, service: ServiceError, context: ErrorContext): boolean {
	const mentionsCursor = [service.code, service.message, ...Object.keys(service.fields ?? {})].some(
		(text) => /cursor/i.test(text ?? ''),
	);
	// A poll's saved cursor is sent with the very query that worked
	// before: a bare 400 can only be about it.
	if (status === 400)
		return mentionsCursor || (context.poll === true && context.cursorFrom !== undefined);
	return [404, 410, 422].includes(status) && context.cursorFrom !== undefined && mentionsCursor;
}

export function describeApiError(
	status: number,
	body: unknown,
	context: ErrorContext = {},
): DescribedError {
	const service = readServiceError(body);
	const said = service.message ? ` The service said: "${service.message}"` : '';
	if (isRejectedCursor(status, service, context)) {
		return {
			message: REJECTED_CURSOR_MESSAGE,
			cursorRejected: true,
			description: context.poll
				? 'Nothing was saved from this poll: the next poll reads these records ' +
					`again from the newest one, so none is skipped or emitted twice.${said}`
				: context.cursorFrom === 'caller'
					? 'Cursor must be the next_cursor of the previous page, with ' +
						'the same filters, sort and page size (cursors may expire); ' +
						`leave it empty to start from the first page.${said}`
					: context.onePagePerRun
						? `${CURSOR_REFUSED_IN_RUN}${said}`
						: `${CURSOR_REFUSED}${said}`,
		};
	}
	switch (status) {
		case 400:
			return {
				message: `The service rejected the request as invalid (HTTP 400)`,
				description: `Check the node's parameters.${said}`,
			};
		case 401:
			return {
				message:
					'Authentication failed (HTTP 401): the service did not accept the request signature',
				description:
					'Check the API Key and API Secret in the credential (whole values, ' +
					'no spaces), the clock of the machine running n8n (the service ' +
					'refuses a timestamp a few minutes off), and that the Base URL is the ' +
					`address the service signs, with no proxy rewriting the path.${said}`,
			};
		case 403:
			return {
				message: 'Access denied (HTTP 403)',
				description: `The API key is valid but may not do this.${said}`,
			};
		case 404:
			if (context.resource && context.id !== undefined) {
				return {
					message: `The ${context.resource} with ID "${context.id}" was not found`,
					description: `Check the ID, or pick the ${context.resource} from the list.${said}`,
				};
			}
			return {
				message: 'Not found (HTTP 404)',
				description: `Check the Base URL in the credential.${said}`,
			};
		case 413:
			return {
				message: 'The request is too large for the service (HTTP 413)',
				description: `Send shorter texts or fewer custom fields.${said}`,
			};
		case 422: {
			const fields = fieldMessages(service.fields);
			return {
				message: `The service rejected the data${fields ? `: ${fields}` : ''}`,
				description: `Correct the fields named above.${said}`,
			};
		}
		case 429:
			if (context.waitedMs !== undefined)
				return budgetSpent(status, context, `${RATE_LIMIT_ADVICE}${said}`);
			return {
				message:
					'The service is rate limiting requests (HTTP 429)' +
					`${triedText(context)}${waitText(context)}`,
				description:
					context.retryAfterMs === undefined
						? `${RATE_LIMIT_ADVICE}${said}`
						: `${WAITS_AT_MOST}: run again after that, or lower the pace of ` +
							`the workflow, e.g. with a Wait node or smaller batches.${said}`,
			};
		default:
			if (status >= 500 && context.waitedMs !== undefined) {
				return budgetSpent(
					status,
					context,
					'Try again later: the node retries a request for at ' +
						`most ${seconds(DEFAULT_RETRY_POLICY.budgetMs)}.${said}`,
				);
			}
			if (status >= 500) {
				return {
					message:
						`The service had an error (HTTP ${status})` +
						`${triedText(context)}${waitText(context)}`,
					description:
						context.retryAfterMs === undefined
							? `This is a problem on the service's side; try again later.${said}`
							: `${WAITS_AT_MOST}: try again after that.${said}`,
				};
			}
			return {
				message: `The service answered HTTP ${status}`,
				description: said.trim() || 'Unexpected answer from the service.',
			};
	}
}

const RATE_LIMIT_ADVICE =
	'Run again later, or lower the pace of the workflow, e.g. with a Wait node or smaller batches.';

const seconds = (ms: number) => `${Math.ceil(ms / 1000)} s`;

const WAITS_AT_MOST =
	`The node waits at most ${seconds(DEFAULT_RETRY_POLICY.budgetMs)}` + ' per request';

/**
 * The time for retries ran out on waits the service allowed (e.g.
 * "Retry-After: 0" each time), not on one it asked for.
 */
function budgetSpent(
	status: number,
	{ waitedMs, attempts }: ErrorContext,
	description: string,
): DescribedError {
	return {
		message:
			`The service answered ${status} for ${seconds(waitedMs ?? 0)} ` +
			`(${attempts ?? 1} attempts)`,
		description,
	};
}

function triedText({ attempts }: ErrorContext): string {
	return attempts && attempts > 1 ? `, still after ${attempts} attempts` : '';
}

function waitText({ retryAfterMs }: ErrorContext): string {
	return retryAfterMs === undefined ? '' : ` and asked to wait ${seconds(retryAfterMs)}`;
}

/**
 * What the user reads for these codes; the code itself stays out of
 * the message (see describeConnectionError).
 */
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

const secondsText = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

function connectionProblem(code: string, detail: TransportDetail | undefined): string {
	if (detail?.timeoutMs !== undefined)
		return `no answer within the timeout (${secondsText(detail.timeoutMs)})`;
	if (detail?.cutOff) return 'the answer was cut off before it was complete';
	return CONNECTION_PROBLEMS[code] ?? 'the connection failed';
}

/**
 * A request that got no (complete) answer. The message names no error code
 * on purpose: n8n's NodeApiError swaps such a message for its generic "retry
 * the request immediately", wrong for a create.
 */
export function describeConnectionError(
	code: string,
	attempts: number,
	detail?: TransportDetail,
): DescribedError {
	const message =
		`Could not reach the service: ${connectionProblem(code, detail)}` +
		`${triedText({ attempts })}`;
	if (detail?.timeoutMs !== undefined) {
		return {
			message,
			description:
				'Check that the service is up and reachable from ' +
				'n8n, or raise Options → Timeout if it is slow.',
		};
	}
	if (code === 'ECONNREFUSED' && detail?.host) {
		return {
			message,
			description:
				`Nothing answers at ${detail.host} (ECONNREFUSED): check ` +
				'the Base URL in the credential and that the service is up.',
		};
	}
	return {
		message,
		description:
			`Network error ${code}: check the Base URL in the credential ` +
			'and that the service is running and reachable from n8n.',
	};
}

/** Where in a list an answer came, e.g. "Page 2 of the list, after 100 items. " (runs: getMany). */
export function pageText({ page, itemsBefore = 0, onePagePerRun }: ErrorContext): string {
	if (page === undefined || onePagePerRun) return '';
	if (page === 1) return 'Page 1 of the list. ';
	return `Page ${page} of the list, after ${itemsBefore} items. `;
}

const CHECK_BASE_URL =
	'Check the Base URL in the credential (the API, not a web page ' +
	`or app): ${BASE_URL_ADVICE} If it is right, try again later.`;

/**
 * A 2xx answer that is not what the API sends: not JSON at all, a list without
 * its `data` array, or a list for one record.
 */
export function describeMalformedAnswer(
	problem: 'notJson' | 'noDataArray' | 'notRecord',
	contentType: string | undefined,
	body: unknown,
	context: ErrorContext,
	wasCreate: boolean,
): DescribedError {
	const where = pageText(context);
	const notRepeated = wasCreate
		? 'The create was not repeated, as the service answered ' +
			'success: check whether it exists before running again. '
		: '';
	const description = `${where}${notRepeated}${CHECK_BASE_URL}`;
	if (problem === 'notJson') {
		const text = (
			typeof body === 'string'
				? body
				: body instanceof Uint8Array
					? new TextDecoder().decode(body)
					: String(body)
		)
			.replace(/\s+/g, ' ')
			.trim();
		const first = text.length > 80 ? `${text.slice(0, 80)}…` : text;
		return {
			message:
				"The service answered with something that is not the API's JSON: " +
				`${contentType ?? 'no content type'}, first 80 characters "${first}"`,
			description,
		};
	}
	if (problem === 'noDataArray') {
		const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
		return {
			message: 'The service answered a list without its "data" array',
			description:
				where +
				(keys.length
					? `The answer's top-level keys: ${keys.slice(0, 10).join(', ')}. `
					: 'The answer was empty. ') +
				CHECK_BASE_URL,
		};
	}
	return { message: 'The service answered with a list where one record was expected', description };
}

/**
 * A redirect answer, never followed: the signature does not cover the host, so another
 * address could replay the request, and a 301/302 would turn a create into a GET. The Base
 * URL to set is what comes before the API path.
 */
export function describeRedirect(
	status: number,
	location: string | undefined,
	requestedUrl: string,
	apiPrefix: string,
): DescribedError {
	const description =
		'Set the Base URL to the address the service answers at itself, ' +
		'often https:// instead of http:// or another host name: the node ' +
		`sends a signed request to no other address. (HTTP ${status})`;
	if (!location)
		return {
			message: `The service answered with a redirect (HTTP ${status}) without saying where to`,
			description,
		};
	const target = URL.canParse(location, requestedUrl) ? new URL(location, requestedUrl) : undefined;
	if (!target)
		return {
			message: `The service redirected to ${location}: check the Base URL in the credential`,
			description,
		};
	const at = target.pathname.indexOf(apiPrefix);
	if (at === -1)
		return {
			message: `The service redirected to ${target.href}: check the Base URL in the credential`,
			description,
		};
	return {
		message:
			`The service redirected to ${target.href}: set the Base ` +
			`URL to ${target.origin}${target.pathname.slice(0, at)}`,
		description,
	};
}
