/**
 * A clear message instead of the HTTP client's bare "Invalid URL" when the Base URL is not usable.
 */
const BASE_URL_EXAMPLE = 'https://support.example.com';

const WEB_ADDRESS = /^https?:\/\/[^/?#\s]+/i;

/**
 * What a usable Base URL looks like; the messages for answers that are not the API's give it too.
 */
export const BASE_URL_ADVICE =
	`Enter the full address of the service, e.g. ${BASE_URL_EXAMPLE}, ` + 'without /api/v1/external.';

/** The problem with a Base URL, or undefined when it is usable (after trimming). */
function baseUrlProblem(value: string): string | undefined {
	const shown = value === '' ? '(empty)' : `"${value}"`;
	if (!WEB_ADDRESS.test(value)) {
		return `The Base URL ${shown} in the credential is not a web address. ${BASE_URL_ADVICE}`;
	}
	if (!URL.canParse(value))
		return (
			`The Base URL ${shown} in the credential cannot be read as an address. ` + BASE_URL_ADVICE
		);
	// The API path is appended as text (a path prefix must survive), so the API path already there,
	// or a query or fragment, would put it in the wrong place.
	const { origin, pathname, search, hash } = new URL(value);
	const apiPath = /\/api\/v1\/external(?:\/|$)/i.exec(pathname);
	if (apiPath) {
		const extra = pathname.slice(apiPath.index).replace(/\/+$/, '');
		return (
			`The Base URL ${shown} in the credential ends with ${extra}, a path the node ` +
			`adds itself: remove it and enter "${origin}${pathname.slice(0, apiPath.index)}".`
		);
	}
	if (search || hash || /[?#]/.test(value))
		return (
			`The Base URL ${shown} in the credential has a query (?) or fragment ` +
			`(#): remove it and enter "${origin}${pathname.replace(/\/+$/, '')}".`
		);
	return undefined;
}

/**
 * The trimmed Base URL, or throws what `toError` makes of the
 * problem; the credential and the nodes share it.
 */
export function readBaseUrl(
	value: unknown,
	toError: (problem: string) => Error = (problem) => new Error(problem),
): string {
	const trimmed = typeof value === 'string' ? value.trim() : '';
	const problem = baseUrlProblem(trimmed);
	if (problem) throw toError(problem);
	return trimmed;
}
