import { createHash } from 'node:crypto';

/** 12 base64url characters: 72 bits of SHA-256, so two different states collide about once in 4.7e21. */
const FINGERPRINT_CHARS = 12;

/**
 * A compact fingerprint of a record's state: SHA-256 of its JSON with the keys sorted at every
 * level, so the same state gives the same fingerprint whatever order the service sends keys in.
 */
export function fingerprint(record: unknown): string {
	return createHash('sha256').update(canonicalJson(record)).digest('base64url').slice(0, FINGERPRINT_CHARS);
}

function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const entries = Object.keys(value)
			.sort()
			.filter((key) => (value as Record<string, unknown>)[key] !== undefined)
			.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}
