/**
 * Turns the request options n8n hands to a credential's `authenticate()` into the exact request
 * that goes on the wire, signed. n8n calls it before serialization, so the options may arrive as
 * a relative `url` plus `baseURL`, a separate `qs` object, an object or string body, no method,
 * or as this function's own output again (n8n re-authenticates after a 401). n8n's HTTP Request node
 * calls it through the older `requestWithAuthentication`, whose options name the address `uri`
 * (the HTTP client reads `url ?? uri`). Whatever the shape,
 * the result carries an absolute URL with the query already in it, a body that is already the
 * JSON text, and a signature over exactly those bytes. The input is never mutated.
 */
import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';

import {
	API_KEY_HEADER,
	computeSignature,
	SIGNATURE_HEADER,
	TIMESTAMP_HEADER,
	unixTimestamp,
	type Body,
} from './signature';
import { latin1Problem } from './latin1';
import { serializeQuery, type QueryInput } from './serializeQuery';
import { readBaseUrl } from './baseUrl';

export interface SigningCredentials {
	apiKey: string;
	apiSecret: string;
}

const ABSOLUTE_URL = /^([a-z][a-z\d+\-.]*:)?\/\//i;
const METHODS_WITHOUT_BODY = ['GET', 'HEAD', 'OPTIONS'];

/** axios's own join (`combineURLs`): plain concatenation, so a path prefix in the base survives. */
export function joinUrl(baseURL: string | undefined, url: string): string {
	if (!baseURL || ABSOLUTE_URL.test(url)) return url;
	if (!url) return baseURL;
	return `${baseURL.replace(/\/?\/$/, '')}/${url.replace(/^\/+/, '')}`;
}

function isEmptyBody(body: unknown): boolean {
	if (body === undefined || body === null) return true;
	if (typeof body === 'string' || body instanceof Uint8Array) return body.length === 0;
	return typeof body === 'object' && Object.keys(body).length === 0;
}

/**
 * The body bytes the HTTP client will send, computed the way axios computes them for a JSON
 * request: an object is stringified (compact, as the spec requires); a string that is JSON is
 * trimmed; any other string is sent as a JSON string literal. Bytes are sent as they are.
 */
function serializeBody(body: unknown): Body {
	if (body instanceof Uint8Array) return body;
	if (typeof body !== 'string') return JSON.stringify(body);
	try {
		JSON.parse(body);
		return body.trim();
	} catch {
		return JSON.stringify(body);
	}
}

function withoutHeaders(headers: IDataObject | undefined, names: string[]): IDataObject {
	const drop = new Set(names);
	const kept: IDataObject = {};
	for (const [name, value] of Object.entries(headers ?? {})) {
		if (!drop.has(name.toLowerCase())) kept[name] = value;
	}
	return kept;
}

/** Request options as the older `requestWithAuthentication` passes them (request-promise style). */
type LegacyRequestOptions = IHttpRequestOptions & {
	uri?: string | URL;
	form?: unknown;
	formData?: unknown;
	followRedirect?: boolean;
	followAllRedirects?: boolean;
};

/**
 * A form body (the HTTP Request node's "Form Urlencoded" / "Form-Data") is encoded by the HTTP
 * client after signing, so no signature could match it; the service takes JSON anyway.
 */
function rejectFormBody(options: LegacyRequestOptions): void {
	if (isEmptyBody(options.form) && isEmptyBody(options.formData)) return;
	throw new Error(
		'The Support Ticket API takes JSON bodies, not form data: in the HTTP Request node set Body Content Type to JSON',
	);
}

/** The absolute address to request, with a message that helps when it is not one. */
function targetUrl(options: LegacyRequestOptions): URL {
	const url = String(options.url ?? options.uri ?? '').trim();
	if (ABSOLUTE_URL.test(url)) {
		if (!URL.canParse(url)) throw new Error(`The request URL "${url}" is not a valid web address`);
		return new URL(url);
	}
	return new URL(joinUrl(readBaseUrl(options.baseURL ?? ''), url));
}

/** Before any request: a key or secret that cannot go out intact fails with what to do. */
function rejectNonLatin1({ apiKey, apiSecret }: SigningCredentials): void {
	const problem = latin1Problem('API Key', apiKey) ?? latin1Problem('API Secret', apiSecret);
	if (problem) throw new Error(problem);
}

export function signRequestOptions(
	options: IHttpRequestOptions,
	credentials: SigningCredentials,
	nowMs: number,
): IHttpRequestOptions {
	rejectNonLatin1(credentials);
	const method = (options.method ?? 'GET').toUpperCase() as IHttpRequestMethods;
	rejectFormBody(options);
	const target = targetUrl(options);
	target.hash = '';
	const query = options.qs ? serializeQuery(options.qs as QueryInput) : '';
	if (query) target.search = target.search ? `${target.search}&${query}` : `?${query}`;
	// Re-parse so the signed path is what the HTTP client derives from the URL (new URL() is
	// what axios uses): dot segments resolved, characters outside the URL grammar escaped.
	const wire = new URL(target.href);
	const pathWithQuery = `${wire.pathname}${wire.search}`;

	const hasBody = !(METHODS_WITHOUT_BODY.includes(method) || isEmptyBody(options.body));
	const body: Body = hasBody ? serializeBody(options.body) : '';
	const timestamp = unixTimestamp(nowMs);

	const headers = withoutHeaders(options.headers, [
		API_KEY_HEADER,
		TIMESTAMP_HEADER,
		SIGNATURE_HEADER,
		...(hasBody ? ['content-type'] : []),
	]);
	headers[API_KEY_HEADER] = credentials.apiKey;
	headers[TIMESTAMP_HEADER] = timestamp;
	headers[SIGNATURE_HEADER] = computeSignature(credentials.apiSecret, {
		timestamp,
		method,
		pathWithQuery,
		body,
	});
	if (hasBody) headers['Content-Type'] = 'application/json';

	// No redirect is followed with a signed request, whoever sends it (our nodes, the HTTP Request
	// node, the credential Test): the signature does not cover the host, so another address could
	// replay the request to the service within the timestamp window, and n8n forwards only an
	// Authorization header's removal, not x-api-key's. The redirect comes back as the answer.
	const signed: LegacyRequestOptions = {
		...options,
		method,
		url: wire.href,
		headers,
		disableFollowRedirect: true,
		maxRedirects: 0,
		followRedirect: false,
		followAllRedirects: false,
	};
	delete signed.uri;
	delete signed.baseURL;
	delete signed.qs;
	delete signed.body;
	if (hasBody) signed.body = body as IHttpRequestOptions['body'];
	return signed;
}
