/**
 * RFC 3986 query bytes, built here because the signature covers them and
 * n8n's serializer differs between versions.
 */
export type QueryValue = string | number | boolean | null | undefined;
export type QueryInput = Record<string, QueryValue | QueryValue[]>;

export function encodeRfc3986(value: string): string {
	return encodeURIComponent(value).replace(
		/[!'()*]/g,
		(char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
	);
}

/** Omits `undefined` and `null`; an array repeats its key. Key order is kept as given. */
export function serializeQuery(query: QueryInput): string {
	const pairs: string[] = [];
	for (const [key, raw] of Object.entries(query)) {
		for (const value of Array.isArray(raw) ? raw : [raw]) {
			if (value === undefined || value === null) continue;
			if (typeof value === 'object') {
				throw new TypeError(`Query parameter "${key}" must be a string, number or boolean`);
			}
			pairs.push(`${encodeRfc3986(key)}=${encodeRfc3986(String(value))}`);
		}
	}
	return pairs.join('&');
}
