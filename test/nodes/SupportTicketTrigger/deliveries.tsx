import { request } from 'node:http';

import { hmacSha256Hex, sha256Hex, signedMessage } from '../../../sandbox/auth';

// Deliveries built by hand, signed with the sandbox's signing code (not the package's), to forge and tamper with any part.
export interface DeliveryParts {
	url: string;
	body: string;
	secret: string;
	timestamp?: string;
	/** Path (with query) that goes into the signature; default: the URL's. */
	signedPath?: string;
	/** Extra or replacing headers; `null` removes a header; an array sends it repeated. */
	headers?: Record<string, string | string[] | null>;
	/** Body bytes sent instead of the signed `body`. */
	sentBody?: string;
}

export function nowSeconds(offsetSeconds = 0): string {
	return String(Math.floor(Date.now() / 1000) + offsetSeconds);
}

export function deliver(parts: DeliveryParts): Promise<{ status: number; body: string }> {
	const url = new URL(parts.url);
	const timestamp = parts.timestamp ?? nowSeconds();
	const path = parts.signedPath ?? url.pathname + url.search;
	const headers: Record<string, string | string[]> = {
		'content-type': 'application/json',
		'x-api-key': 'sandbox-key',
		'x-api-timestamp': timestamp,
		'x-api-signature': hmacSha256Hex(
			parts.secret,
			signedMessage(timestamp, 'POST', path, sha256Hex(parts.body)),
		),
	};
	for (const [name, value] of Object.entries(parts.headers ?? {})) {
		if (value === null) delete headers[name];
		else headers[name] = value;
	}
	return new Promise((resolve, reject) => {
		const req = request(parts.url, { method: 'POST', headers }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () =>
				resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
			);
		});
		req.on('error', reject);
		req.end(parts.sentBody ?? parts.body);
	});
}
