import {
	SIGNATURE_HEADER,
	TIMESTAMP_HEADER,
	verifySignature,
	type VerificationResult,
} from '../shared/signing/signature';

/** Request headers as Node gives them: lower-case names; a repeated header may be a list. */
export type RequestHeaders = Record<string, string | string[] | undefined>;

export interface WebhookDelivery {
	headers: RequestHeaders;
	/** The body bytes exactly as received; what the service hashed. */
	rawBody: Buffer | undefined;
	/** The path (with query) the service signed: the public path it called. */
	signedPath: string;
}

export interface WebhookVerification {
	/** The current secret; during a rotation also the previous one. */
	secrets: readonly string[];
	nowMs: number;
	toleranceSeconds: number;
}

/**
 * The request scheme over the raw body; anything unusual (a
 * repeated header, no raw body) fails closed.
 */
export function verifyWebhookSignature(
	delivery: WebhookDelivery,
	options: WebhookVerification,
): VerificationResult {
	if (options.secrets.length === 0) {
		const message = 'The credential has no API Secret or Webhook Secret: fill one in';
		return { valid: false, reason: 'invalid_signature', message };
	}
	const timestamp = singleHeader(delivery.headers, TIMESTAMP_HEADER);
	const signature = singleHeader(delivery.headers, SIGNATURE_HEADER);
	if (timestamp === null || signature === null) {
		return {
			valid: false,
			reason: 'missing_headers',
			message:
				`The ${timestamp === null ? TIMESTAMP_HEADER : SIGNATURE_HEADER} ` +
				'header was sent more than once',
		};
	}
	const { rawBody } = delivery;
	if (!rawBody) {
		return {
			valid: false,
			reason: 'invalid_signature',
			message: 'n8n did not pass the raw request body, so the signature cannot be checked',
		};
	}
	// Every secret is tried, so the answer's timing does not tell which one matched.
	const results = options.secrets.map((secret) =>
		verifySignature({
			secret,
			timestamp,
			signature,
			method: 'POST',
			pathWithQuery: delivery.signedPath,
			body: rawBody,
			nowMs: options.nowMs,
			toleranceSeconds: options.toleranceSeconds,
		}),
	);
	return results.find((result) => result.valid) ?? results[0];
}

/**
 * The header's value; null when it was repeated (Node joins or lists repeats, never trust them).
 */
function singleHeader(headers: RequestHeaders, name: string): string | undefined | null {
	const value = headers[name];
	if (Array.isArray(value)) return value.length === 1 ? value[0] : null;
	if (value !== undefined && value.includes(',')) return null;
	return value;
}
