import { request } from 'node:http';

import { hmacSha256Hex, sha256Hex, signedMessage } from '../../../sandbox/auth';

// Deliveries built by hand, signed with the sandbox's signing code (not the package's), to forge and tamper with any part.
export interface DeliveryParts {
	url: string;
	body: string | Buffer;
	secret: string;
	timestamp?: string;
	/** Path (with query) that goes into the signature; default: the URL's. */
	signedPath?: string;
	/** Signature to send instead of the computed one. */
	signature?: string;
	/** Extra or replacing headers; `null` removes a header; an array sends it repeated. */
	headers?: Record<string, string | string[] | null>;
	/** Body bytes sent instead of the signed `body`. */
	sentBody?: string | Buffer;
}

export interface Answer {
	status: number;
	body: string;
}

export function nowSeconds(offsetSeconds = 0): string {
	return String(Math.floor(Date.now() / 1000) + offsetSeconds);
}

function signDelivery(parts: DeliveryParts): Record<string, string | string[]> {
	const url = new URL(parts.url);
	const timestamp = parts.timestamp ?? nowSeconds();
	const path = parts.signedPath ?? url.pathname + url.search;
	const signature =
		parts.signature ??
		hmacSha256Hex(parts.secret, signedMessage(timestamp, 'POST', path, sha256Hex(parts.body)));
	const headers: Record<string, string | string[]> = {
		'content-type': 'application/json',
		'x-api-key': 'sandbox-key',
		'x-api-timestamp': timestamp,
		'x-api-signature': signature,
	};
	for (const [name, value] of Object.entries(parts.headers ?? {})) {
		if (value === null) delete headers[name];
		else headers[name] = value;
	}
	return headers;
}

export function deliver(parts: DeliveryParts): Promise<Answer> {
	const headers = signDelivery(parts);
	const body = parts.sentBody ?? parts.body;
	return new Promise((resolve, reject) => {
		const req = request(parts.url, { method: 'POST', headers }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () =>
				resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
			);
		});
		req.on('error', reject);
		req.end(body);
	});
}
