/**
 * Request signature verification (docs/api.md#signing), written independently of the package's
 * signing code so that a bug on one side cannot cancel out the same bug on the other.
 *
 *   message   = timestamp + METHOD + path-as-received (with query) + sha256hex(raw body)
 *   signature = lowercase hex HMAC-SHA256(secret, message)
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from './errors';

export const DEFAULT_MAX_SKEW_SECONDS = 300;

/** Above this a "seconds" value is really milliseconds: 1e11 s is the year 5138, 1e11 ms is 1973. */
const MILLISECONDS_THRESHOLD = 1e11;

export function sha256Hex(data: Buffer | string): string {
	return createHash('sha256').update(data).digest('hex');
}

export function hmacSha256Hex(secret: string, message: string): string {
	return createHmac('sha256', secret).update(message, 'utf8').digest('hex');
}

/** The exact string that gets signed, for requests and for webhook deliveries alike. */
export function signedMessage(
	timestamp: string,
	method: string,
	path: string,
	bodySha256: string,
): string {
	return `${timestamp}${method.toUpperCase()}${path}${bodySha256}`;
}

export interface SignedRequest {
	method: string;
	/** The request target exactly as received (`req.url`): path plus query string, undecoded. */
	path: string;
	headers: IncomingHttpHeaders;
	/** Lowercase hex SHA-256 of the raw body bytes (of the empty string when there is no body). */
	bodySha256: string;
}

export interface VerifyOptions {
	/** API key -> secret. */
	keys: ReadonlyMap<string, string>;
	nowMs: number;
	maxSkewSeconds: number;
}

/**
 * Returns the API key on success; throws a 401 ApiError naming the first failed check.
 * Checks run in a fixed order so the reported cause is the most basic one.
 */
export function verifyRequestSignature(request: SignedRequest, options: VerifyOptions): string {
	const apiKey = headerValue(request.headers, 'x-api-key');
	const timestamp = headerValue(request.headers, 'x-api-timestamp');
	const signature = headerValue(request.headers, 'x-api-signature');

	const missing: string[] = [];
	if (!apiKey) missing.push('x-api-key');
	if (!timestamp) missing.push('x-api-timestamp');
	if (!signature) missing.push('x-api-signature');
	if (!apiKey || !timestamp || !signature) {
		throw unauthorized(
			'missing_headers',
			`Missing authentication header${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}. ` +
				'Every request needs x-api-key, x-api-timestamp and x-api-signature.',
			{ missing },
		);
	}

	if (!/^[0-9]+$/.test(timestamp)) {
		throw unauthorized(
			'invalid_timestamp',
			`x-api-timestamp must be the current Unix time in whole seconds as a plain decimal string; got '${truncate(timestamp)}'.`,
		);
	}
	const timestampSeconds = Number(timestamp);
	if (timestampSeconds > MILLISECONDS_THRESHOLD) {
		throw unauthorized(
			'timestamp_in_milliseconds',
			`x-api-timestamp '${truncate(timestamp)}' looks like milliseconds; send whole seconds (Math.floor(Date.now() / 1000)).`,
		);
	}
	const serverSeconds = Math.floor(options.nowMs / 1000);
	const skew = serverSeconds - timestampSeconds;
	if (Math.abs(skew) > options.maxSkewSeconds) {
		const direction = skew > 0 ? 'behind' : 'ahead of';
		throw unauthorized(
			'timestamp_skew',
			`x-api-timestamp is ${Math.abs(skew)} seconds ${direction} the server clock; at most ${options.maxSkewSeconds} seconds are accepted. ` +
				'Check the client clock and use a fresh timestamp for every request, including retries.',
			{ skew_seconds: skew, max_skew_seconds: options.maxSkewSeconds, server_time: serverSeconds },
		);
	}

	const secret = options.keys.get(apiKey);
	if (secret === undefined) {
		throw unauthorized('invalid_api_key', 'The x-api-key is not known to this service.');
	}

	// What the server hashed: lets a client compare its own inputs, and reveals nothing secret.
	const signedInputs = {
		timestamp,
		method: request.method.toUpperCase(),
		path: request.path,
		body_sha256: request.bodySha256,
	};
	const howToSign =
		'Sign timestamp + upper-case METHOD + request path exactly as sent (including the query string) + ' +
		'lowercase hex SHA-256 of the raw body bytes (of the empty string when there is no body), ' +
		'with HMAC-SHA256 keyed by the API secret, and send the lowercase hex digest.';
	if (!/^[0-9a-f]{64}$/.test(signature)) {
		throw unauthorized(
			'invalid_signature',
			`x-api-signature must be 64 lowercase hexadecimal characters. ${howToSign}`,
			{ signed: signedInputs },
		);
	}
	const expected = hmacSha256Hex(
		secret,
		signedMessage(timestamp, request.method, request.path, request.bodySha256),
	);
	if (!timingSafeEqual(Buffer.from(expected, 'utf8'), Buffer.from(signature, 'utf8'))) {
		throw unauthorized('invalid_signature', `x-api-signature does not match. ${howToSign}`, {
			signed: signedInputs,
		});
	}
	return apiKey;
}

function unauthorized(code: string, message: string, details?: Record<string, unknown>): ApiError {
	return new ApiError(401, code, message, details);
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
	const value = headers[name];
	// Node joins repeated custom headers with ", ", which then fails the format checks as it should.
	return Array.isArray(value) ? value.join(', ') : value;
}

function truncate(value: string): string {
	return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
