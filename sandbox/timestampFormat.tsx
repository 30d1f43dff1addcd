/**
 * How the API writes created_at / updated_at. The spec only says "timestamp" (docs/api.md#timestamps); the sandbox
 * answers ISO 8601 UTC with milliseconds by default, and can answer the other forms a service
 * might use, so clients are tested against each: ISO without a zone (meant as UTC), or Unix
 * time as a number in seconds or milliseconds. Webhook payloads keep the default form.
 */
import type { HttpResponse } from './http';

export const TIMESTAMP_FORMATS = [
	'iso',
	'iso-without-zone',
	'epoch-seconds',
	'epoch-milliseconds',
] as const;
export type TimestampFormat = (typeof TIMESTAMP_FORMATS)[number];

const TIMESTAMP_FIELDS = ['created_at', 'updated_at'];

/** Rewrites the timestamps of the resource(s) in a success response's `data`. */
export function formatResponseTimestamps(
	response: HttpResponse,
	format: TimestampFormat,
): HttpResponse {
	if (format === 'iso' || response.status >= 300) return response;
	const body = response.body as { data?: unknown } | undefined;
	if (body === undefined || typeof body !== 'object' || body === null || !('data' in body))
		return response;
	const data = Array.isArray(body.data)
		? body.data.map((item) => reformat(item, format))
		: reformat(body.data, format);
	return { ...response, body: { ...body, data } };
}

function reformat(resource: unknown, format: TimestampFormat): unknown {
	if (typeof resource !== 'object' || resource === null) return resource;
	const out: Record<string, unknown> = { ...(resource as Record<string, unknown>) };
	for (const field of TIMESTAMP_FIELDS) {
		const value = out[field];
		if (typeof value === 'string') out[field] = formatTimestamp(value, format);
	}
	return out;
}

/** A stored ISO timestamp as the API answers it in `format`. */
export function formatTimestamp(iso: string, format: TimestampFormat): string | number {
	const ms = Date.parse(iso);
	return format === 'iso'
		? iso
		: format === 'iso-without-zone'
			? iso.replace(/Z$/, '')
			: format === 'epoch-seconds'
				? Math.floor(ms / 1000)
				: ms;
}
