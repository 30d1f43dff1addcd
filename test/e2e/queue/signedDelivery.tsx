import { hmacSha256Hex, sha256Hex, signedMessage } from '../../../sandbox/auth';

export interface Delivery {
	/** The exact body bytes (what is signed). */
	body: string;
	eventId: string;
}

export interface DeliveryAnswer {
	status: number;
	body: unknown;
}

/** A delivery signed as the service signs one, to send what the sandbox would not: a forgery, or the same event again. */
export async function sendDelivery(url: string, delivery: Delivery, keys: { apiKey: string; secret: string }): Promise<DeliveryAnswer> {
	const target = new URL(url);
	const timestamp = String(Math.floor(Date.now() / 1000));
	const signature = hmacSha256Hex(keys.secret, signedMessage(timestamp, 'POST', target.pathname + target.search, sha256Hex(delivery.body)));
	const response = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-api-key': keys.apiKey,
			'x-api-timestamp': timestamp,
			'x-api-signature': signature,
			'x-event-id': delivery.eventId,
		},
		body: delivery.body,
		signal: AbortSignal.timeout(60_000),
	});
	const text = await response.text();
	try {
		return { status: response.status, body: JSON.parse(text) as unknown };
	} catch {
		return { status: response.status, body: text };
	}
}
