/**
 * Opaque pagination cursors.
 *
 * A cursor carries the keyset position of the last item served plus the canonical text of
 * the query that produced it (endpoint, filters, sort, per_page), authenticated with an
 * HMAC key private to this server instance. Tampering or garbage gives `invalid_cursor`;
 * a genuine cursor sent with a different query gives `cursor_mismatch`, which is the client
 * bug the spec warns about ("valid only for the same query": docs/api.md#paging).
 *
 * Encoding: base64url( JSON payload bytes || first 16 bytes of HMAC-SHA256(key, payload) ).
 * Cursors do not expire, but a restarted sandbox has a new key, so old cursors are invalid.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError } from './errors';
import type { KeysetPosition } from './keysetIndex';

const MAC_BYTES = 16;
const MAX_CURSOR_LENGTH = 2048;
const CURSOR_VERSION = 1;

interface CursorPayload {
	v: number;
	/** Canonical query the cursor belongs to. */
	q: string;
	k: number;
	s: number;
}

export class CursorCodec {
	constructor(private readonly key: Buffer = randomBytes(32)) {}

	encode(query: string, position: KeysetPosition): string {
		const payload: CursorPayload = {
			v: CURSOR_VERSION,
			q: query,
			k: position.key,
			s: position.seq,
		};
		const bytes = Buffer.from(JSON.stringify(payload), 'utf8');
		return Buffer.concat([bytes, this.mac(bytes)]).toString('base64url');
	}

	/** Returns the position after which the next page starts, or throws a 400 ApiError. */
	decode(cursor: string, query: string): KeysetPosition {
		if (cursor === '')
			throw invalidCursor('The cursor parameter is empty; omit it to get the first page.');
		if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor))
			throw invalidCursor();
		const raw = Buffer.from(cursor, 'base64url');
		if (raw.length <= MAC_BYTES) throw invalidCursor();
		const bytes = raw.subarray(0, raw.length - MAC_BYTES);
		if (!timingSafeEqual(raw.subarray(raw.length - MAC_BYTES), this.mac(bytes)))
			throw invalidCursor();

		const payload = parsePayload(bytes);
		if (payload === undefined) throw invalidCursor();
		if (payload.q !== query) {
			throw new ApiError(
				400,
				'cursor_mismatch',
				`This cursor belongs to a different query: it was issued for '${payload.q}', but this request is '${query}'. ` +
					'Repeat the endpoint, filters, sort and per_page of the first request unchanged with every cursor, or start again without a cursor.',
				{ cursor_query: payload.q, request_query: query },
			);
		}
		return { key: payload.k, seq: payload.s };
	}

	private mac(bytes: Buffer): Buffer {
		return createHmac('sha256', this.key).update(bytes).digest().subarray(0, MAC_BYTES);
	}
}

function invalidCursor(
	message = 'The cursor is not valid: pass next_cursor exactly as received from the previous page of the same query (cursors are opaque and cannot be built or edited).',
): ApiError {
	return new ApiError(400, 'invalid_cursor', message, { parameter: 'cursor' });
}

function parsePayload(bytes: Buffer): CursorPayload | undefined {
	try {
		const value: unknown = JSON.parse(bytes.toString('utf8'));
		if (typeof value !== 'object' || value === null) return undefined;
		const { v, q, k, s } = value as Record<string, unknown>;
		if (
			v !== CURSOR_VERSION ||
			typeof q !== 'string' ||
			!Number.isFinite(k) ||
			!Number.isSafeInteger(s)
		)
			return undefined;
		return { v, q, k: k as number, s: s as number };
	} catch {
		return undefined;
	}
}
