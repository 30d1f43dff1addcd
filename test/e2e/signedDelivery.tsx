import { hmacSha256Hex, sha256Hex, signedMessage } from '../../sandbox/auth';
import { jsonOrText } from './n8n/restClient';

/** A POST of `body` (sent as given when a string); the answer's body parsed as JSON where it is JSON. */
export async function postJson(
	url: string,
	body: unknown,
	headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
		signal: AbortSignal.timeout(120_000),
	});
	return { status: response.status, body: jsonOrText(await response.text()) };
}

/** The headers the service signs a delivery of `body` (the exact bytes) to `url` with. */
export function deliveryHeaders(
	url: string,
	body: string,
	eventId: string,
	keys: { apiKey: string; secret: string },
	timestampSeconds = Math.floor(Date.now() / 1000),
): Record<string, string> {
	const target = new URL(url);
	const timestamp = String(timestampSeconds);
	return {
		'x-api-key': keys.apiKey,
		'x-api-timestamp': timestamp,
		'x-api-signature': hmacSha256Hex(
			keys.secret,
			signedMessage(timestamp, 'POST', target.pathname + target.search, sha256Hex(body)),
		),
		'x-event-id': eventId,
	};
}

/** A delivery signed as the service signs one, to send what the sandbox would not: a forgery, or the same event again. */
export function sendDelivery(
	url: string,
	delivery: { body: string; eventId: string },
	keys: { apiKey: string; secret: string },
): Promise<{ status: number; body: unknown }> {
	return postJson(url, delivery.body, deliveryHeaders(url, delivery.body, delivery.eventId, keys));
}
