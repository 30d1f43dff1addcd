/**
 * An ID without ".", "..", "/", "?", "#", spaces or invisible characters:
 * those would move it in the path or hide in it.
 */
function idPattern(invisible: string): string {
	return `^(?!\\.{1,2}$)[^/?#\\s${invisible}]+$`;
}

/**
 * Control, format (zero-width, bidi, BOM) and lone surrogate
 * characters; a lone surrogate cannot even go in a URL.
 */
export const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}]/gu;

/** The node's own check of an ID (readId). */
export const SAFE_ID = new RegExp(idPattern('\\p{Cc}\\p{Cf}\\p{Cs}'), 'u');

/**
 * The same rule for the By ID field as the user types. n8n's pattern has no Unicode
 * flag, so the characters are listed; lone surrogates are left to readId (without the
 * flag, a surrogate range would refuse emoji too).
 */
export const ID_FIELD_PATTERN = idPattern(
	'\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u0600-\\u0605\\u061c\\u06dd\\u070f\\u180e' +
		'\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb',
);
