/**
 * Honours `Idempotency-Key` on creates (IETF httpapi draft, as Stripe and Adyen do): a repeat with
 * a key seen before gets the first answer again and creates nothing; the key with another request is refused.
 */
import { ApiError } from './errors';
import type { HttpResponse } from './http';

export class IdempotencyKeys {
	private readonly answers = new Map<string, { request: string; answer: HttpResponse }>();

	/** The first answer to this key, or undefined for a key not seen yet; `request` tells the same request from another. */
	replay(key: string | undefined, request: string): HttpResponse | undefined {
		const earlier = key === undefined ? undefined : this.answers.get(key);
		if (earlier && earlier.request !== request) {
			throw new ApiError(
				422,
				'idempotency_key_reused',
				'This Idempotency-Key was sent before with another request; use a new key for a new request.',
			);
		}
		return earlier?.answer;
	}

	remember(key: string | undefined, request: string, answer: HttpResponse): HttpResponse {
		if (key !== undefined) this.answers.set(key, { request, answer });
		return answer;
	}
}
