/**
 * The path (with query) the service signed. Normally what n8n received; behind a proxy that
 * rewrites paths (e.g. strips `/n8n`), the public path the service calls, which the user gives.
 * A public path without a query keeps the query of the request as received.
 */
export function signedPath(receivedUrl: string, publicPath: string | undefined): string {
	const given = (publicPath ?? '').trim();
	if (given === '') return receivedUrl;
	let path = given;
	if (/^https?:\/\//i.test(given)) {
		const url = new URL(given);
		path = url.pathname + url.search;
	}
	if (!path.startsWith('/')) path = `/${path}`;
	if (path.includes('?')) return path;
	const queryStart = receivedUrl.indexOf('?');
	return queryStart === -1 ? path : path + receivedUrl.slice(queryStart);
}
