/**
 * What a ticket or customer ID may be: anything but "." or "..", slashes, "?", "#", spaces and
 * invisible characters, which would put the ID in the wrong place of the request path or make it
 * look right and still not be found (it is often copied along with an ID).
 */
function idPattern(invisible: string): string {
	return `^(?!\\.{1,2}$)[^/?#\\s${invisible}]+$`;
}

/**
 * Control (NUL), format (zero-width space, bidi controls, BOM) and lone surrogate characters; a
 * lone surrogate cannot even be put in a URL.
 */
export const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}]/gu;

/** The node's own check of an ID (readId). */
export const SAFE_ID = new RegExp(idPattern('\\p{Cc}\\p{Cf}\\p{Cs}'), 'u');

/**
 * The same rule for the By ID field, which checks as the user types. n8n's pattern has no Unicode
 * flag, so the invisible characters are listed: controls and format characters (zero-width, bidi,
 * BOM). A lone surrogate is left to readId: without the flag a range of surrogates would also
 * refuse emoji.
 */
export const ID_FIELD_PATTERN = idPattern(
	'\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u0600-\\u0605\\u061c\\u06dd\\u070f\\u180e\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb',
);
