/**
 * The HTTP client silently cuts a header at a character beyond Latin-1, and no issued key has one.
 * Says which field and where, never the value.
 */
export function latin1Problem(label: string, value: string): string | undefined {
	const characters = Array.from(value);
	const at = characters.findIndex((character) => (character.codePointAt(0) ?? 0) > 0xff);
	if (at === -1) return undefined;
	const code = (characters[at].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
	return (
		`The ${label} in the credential has a character outside Latin-1 ` +
		`(U+${code}, character ${at + 1}). Copy it again from the service.`
	);
}
