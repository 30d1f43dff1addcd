/**
 * The credential's Base URL as requests use it: spaces around it trimmed, and a clear message
 * instead of the HTTP client's bare "Invalid URL" when it is not a web address.
 */
const BASE_URL_EXAMPLE = 'https://support.example.com';

const WEB_ADDRESS = /^https?:\/\/[^/?#\s]+/i;

/** What a Base URL looks like, for messages. */
const BASE_URL_ADVICE = `A Base URL is the full address of the service, starting with https:// (or http://), without /api/v1/external, e.g. ${BASE_URL_EXAMPLE}`;

/** The problem with a Base URL, or undefined when it is usable (after trimming). */
function baseUrlProblem(value: string): string | undefined {
	const shown = value === '' ? '(empty)' : `"${value}"`;
	if (!WEB_ADDRESS.test(value)) {
		return `The Base URL ${shown} in the credential is not a web address. ${BASE_URL_ADVICE}`;
	}
	if (!URL.canParse(value)) return `The Base URL ${shown} in the credential cannot be read as an address. ${BASE_URL_ADVICE}`;
	// The API path is appended as text (a path prefix must survive), so these would end up in the
	// wrong place: the API path twice, or the API path inside the query or fragment.
	// Also the API path followed by more (a request's address pasted in, e.g. …/api/v1/external/tickets).
	const { origin, pathname, search, hash } = new URL(value);
	const apiPath = /\/api\/v1\/external(?:\/|$)/i.exec(pathname);
	if (apiPath) {
		const extra = pathname.slice(apiPath.index).replace(/\/+$/, '');
		return `The Base URL ${shown} in the credential ends with ${extra}, a path the node adds itself: remove it and enter "${origin}${pathname.slice(0, apiPath.index)}". ${BASE_URL_ADVICE}`;
	}
	if (search || hash || /[?#]/.test(value)) return `The Base URL ${shown} in the credential has a query (?) or fragment (#): remove it. ${BASE_URL_ADVICE}`;
	return undefined;
}

/**
 * The trimmed Base URL; throws what `toError` makes of the problem (by default an Error that says
 * what a Base URL looks like). The credential signs with it, the nodes read it to name the item.
 */
export function readBaseUrl(value: unknown, toError: (problem: string) => Error = (problem) => new Error(problem)): string {
	const trimmed = typeof value === 'string' ? value.trim() : '';
	const problem = baseUrlProblem(trimmed);
	if (problem) throw toError(problem);
	return trimmed;
}
