/**
 * The API's signature (docs/api.md#signing), pure so the credential, the webhook trigger and tests
 * share it: hex(HMAC-SHA256(secret, timestamp + METHOD + pathWithQuery + sha256hex(body))).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const API_KEY_HEADER = 'x-api-key';
export const TIMESTAMP_HEADER = 'x-api-timestamp';
export const SIGNATURE_HEADER = 'x-api-signature';

/** The window the service is assumed to accept; the API does not say (docs/api.md#signing). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type Body = string | Uint8Array;

export interface SignedParts {
	/** Unix time in whole seconds, as the decimal string that is sent. */
	timestamp: string;
	method: string;
	/** The path as requested, with the query string when there is one. */
	pathWithQuery: string;
	/** Exactly the bytes sent as the body; empty for a request without a body. */
	body: Body;
}

export function sha256Hex(body: Body): string {
	return createHash('sha256').update(body).digest('hex');
}

export function buildStringToSign({ timestamp, method, pathWithQuery, body }: SignedParts): string {
	return `${timestamp}${method.toUpperCase()}${pathWithQuery}${sha256Hex(body)}`;
}

/** Any Unicode secret: the HMAC key is its UTF-8 bytes (docs/api.md#signing). */
export function computeSignature(secret: string, parts: SignedParts): string {
	const key = Buffer.from(secret, 'utf8');
	return createHmac('sha256', key).update(buildStringToSign(parts), 'utf8').digest('hex');
}

/** Whole seconds, never milliseconds: the service rejects a millisecond timestamp. */
export function unixTimestamp(nowMs: number): string {
	return String(Math.floor(nowMs / 1000));
}

export type VerificationFailure =
	| 'missing_headers'
	| 'invalid_timestamp'
	| 'timestamp_in_milliseconds'
	| 'timestamp_outside_window'
	| 'invalid_signature';

export type VerificationResult =
	| { valid: true }
	| { valid: false; reason: VerificationFailure; message: string };

export interface VerifyInput {
	secret: string;
	timestamp: string | undefined;
	signature: string | undefined;
	method: string;
	pathWithQuery: string;
	body: Body;
	nowMs: number;
	toleranceSeconds?: number;
}

const DECIMAL_SECONDS = /^\d{1,16}$/;
const HEX_SHA256 = /^[0-9a-f]{64}$/i;
/** A seconds timestamp has 10 digits until the year 2286; 13 digits is a millisecond clock. */
const MILLISECOND_THRESHOLD = 1e11;

/** Timing-safe; a failure says which check failed, never what the expected signature was. */
export function verifySignature(input: VerifyInput): VerificationResult {
	const { timestamp, signature } = input;
	const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
	if (!timestamp || !signature) {
		const missing = [!timestamp && TIMESTAMP_HEADER, !signature && SIGNATURE_HEADER].filter(
			Boolean,
		);
		return fail('missing_headers', `Missing header(s): ${missing.join(', ')}`);
	}
	if (!DECIMAL_SECONDS.test(timestamp)) {
		return fail(
			'invalid_timestamp',
			`The ${TIMESTAMP_HEADER} header is not a whole number of seconds`,
		);
	}
	const seconds = Number(timestamp);
	if (seconds >= MILLISECOND_THRESHOLD) {
		return fail(
			'timestamp_in_milliseconds',
			`The ${TIMESTAMP_HEADER} header looks like ` +
				'milliseconds; it must be Unix time in whole seconds',
		);
	}
	const skew = Math.abs(Math.floor(input.nowMs / 1000) - seconds);
	if (skew > tolerance) {
		return fail(
			'timestamp_outside_window',
			`The timestamp is ${skew} s away from this server's clock (allowed: ` +
				`${tolerance} s). Check both clocks, or this is a replayed request.`,
		);
	}
	if (!HEX_SHA256.test(signature)) {
		return fail('invalid_signature', `The ${SIGNATURE_HEADER} header is not a hex HMAC-SHA256`);
	}
	const expected = Buffer.from(computeSignature(input.secret, { ...input, timestamp }), 'hex');
	const given = Buffer.from(signature, 'hex');
	if (!timingSafeEqual(expected, given)) {
		return fail('invalid_signature', 'The signature does not match the request and the secret');
	}
	return { valid: true };
}

function fail(reason: VerificationFailure, message: string): VerificationResult {
	return { valid: false, reason, message };
}
