/**
 * The path (with query) the service signed: the user's Public Path when a
 * proxy rewrites it, else what n8n received.
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
