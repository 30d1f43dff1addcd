/** Every string and number reachable from a value, hidden properties included: to assert a secret appears nowhere. */
export function reachableText(value: unknown): string {
	const parts: string[] = [];
	const seen = new Set<object>();
	const visit = (current: unknown): void => {
		if (typeof current === 'string') parts.push(current);
		else if (
			typeof current === 'number' ||
			typeof current === 'bigint' ||
			typeof current === 'boolean'
		)
			parts.push(String(current));
		else if (current && typeof current === 'object') {
			if (seen.has(current)) return;
			seen.add(current);
			if (Buffer.isBuffer(current)) parts.push(current.toString('utf8'));
			else if (current instanceof Map) {
				for (const [k, v] of current) {
					visit(k);
					visit(v);
				}
			} else if (current instanceof Set) for (const v of current) visit(v);
			for (const key of Object.getOwnPropertyNames(current)) {
				parts.push(key);
				const descriptor = Object.getOwnPropertyDescriptor(current, key);
				// Getters are not run: reading one could have effects; data properties are enough.
				if (descriptor && 'value' in descriptor) visit(descriptor.value);
			}
		}
	};
	visit(value);
	return parts.join('\n');
}
