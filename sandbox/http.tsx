/** Small node:http helpers: reading a bounded body, content types, JSON responses. */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The spec leaves the body size limit "not shown" (docs/api.md#errors): the sandbox answers 413 above 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;

export type ParsedJson = { ok: true; value: unknown } | { ok: false; reason: string };

export interface RequestBody {
	/** Bytes received; empty when the body was larger than the limit. */
	bytes: Buffer;
	size: number;
	/** SHA-256 hex of all bytes received (the signature covers the whole body even if too large). */
	sha256: string;
	tooLarge: boolean;
	/** Undefined when there is no body (or it is too large to parse). */
	json?: ParsedJson;
}

export interface HttpResponse {
	status: number;
	/** Serialized as compact JSON; omitted for 204. */
	body?: unknown;
	headers?: Record<string, string>;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export async function readRequestBody(
	request: IncomingMessage,
	limit: number = MAX_BODY_BYTES,
): Promise<RequestBody> {
	const hash = createHash('sha256');
	let chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of request) {
		const buffer = chunk as Buffer;
		hash.update(buffer);
		size += buffer.length;
		if (size <= limit) chunks.push(buffer);
		else chunks = []; // keep hashing, stop buffering
	}
	const tooLarge = size > limit;
	const bytes = tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks, size);
	return {
		bytes,
		size,
		sha256: hash.digest('hex'),
		tooLarge,
		json: size > 0 && !tooLarge ? parseJson(bytes) : undefined,
	};
}

function parseJson(bytes: Buffer): ParsedJson {
	let text: string;
	try {
		text = strictUtf8.decode(bytes);
	} catch {
		return { ok: false, reason: 'the body is not valid UTF-8' };
	}
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch (error) {
		return { ok: false, reason: error instanceof Error ? error.message : String(error) };
	}
}

/** `application/json`, with any parameters (charset) and in any letter case. */
export function isJsonContentType(contentType: string | undefined): boolean {
	if (contentType === undefined) return false;
	return contentType.split(';', 1)[0].trim().toLowerCase() === 'application/json';
}

export function writeResponse(response: ServerResponse, result: HttpResponse): void {
	if (response.headersSent || response.destroyed) return;
	if (result.status === 204 || result.body === undefined) {
		response.writeHead(result.status, result.headers);
		response.end();
		return;
	}
	const text = JSON.stringify(result.body);
	response.writeHead(result.status, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': String(Buffer.byteLength(text)),
		...result.headers,
	});
	response.end(text);
}
