/**
 * n8n's options come before serialization (and again signed, after a 401), so the exact wire
 * bytes are fixed here: absolute URL with the query in it, the body as JSON text, a
 * signature over both. The input is never mutated.
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
 * The body bytes as axios would make them for a JSON request: a
 * non-JSON string becomes a JSON string literal.
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

/** A form body (HTTP Request node) is encoded after signing, so no signature could match it. */
function rejectFormBody(options: LegacyRequestOptions): void {
	if (isEmptyBody(options.form) && isEmptyBody(options.formData)) return;
	throw new Error(
		'The Support Ticket API takes JSON bodies, not form data. ' +
			'In the HTTP Request node, set Body Content Type to JSON.',
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

/** Before any request: an API Key that cannot go out intact fails with what to do. */
function rejectNonLatin1Key({ apiKey }: SigningCredentials): void {
	const problem = latin1Problem('API Key', apiKey);
	if (problem) throw new Error(problem);
}

export function signRequestOptions(
	options: IHttpRequestOptions,
	credentials: SigningCredentials,
	nowMs: number,
): IHttpRequestOptions {
	rejectNonLatin1Key(credentials);
	const method = (options.method ?? 'GET').toUpperCase() as IHttpRequestMethods;
	rejectFormBody(options);
	const target = targetUrl(options);
	target.hash = '';
	const query = options.qs ? serializeQuery(options.qs as QueryInput) : '';
	if (query) target.search = target.search ? `${target.search}&${query}` : `?${query}`;
	// Re-parsed as axios will (dot segments resolved, stray characters
	// escaped), so the signed path is the sent one.
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

	// Never follow a redirect: the signature does not cover the host, so the new address could replay
	// the request, and n8n strips only Authorization on a redirect, not x-api-key.
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
