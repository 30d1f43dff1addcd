import type { IDataObject, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { invalid } from './invalid';

// Deliberately loose: one @, something on each side, a dot in the domain, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function requireText(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const text = toText(ctx, ctx.getNodeParameter(name, itemIndex, ''), label, itemIndex) ?? '';
	if (text.trim() === '') {
		throw invalid(
			ctx,
			itemIndex,
			`${label} is empty`,
			`Fill in ${label}, or map a field that has a value for item ${itemIndex}.`,
		);
	}
	return text;
}

/**
 * A mapped value as text (numbers and dates too; undefined for none). Objects and lists are
 * refused: String() would send "[object Object]" or "a,b".
 */
export function toText(
	ctx: IExecuteFunctions | IPollFunctions,
	value: unknown,
	label: string,
	itemIndex: number,
): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'string') return value;
	if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
	if (typeof value === 'number') {
		if (Number.isFinite(value)) return String(value);
		throw notText(
			ctx,
			label,
			itemIndex,
			String(value),
			'Map a field that holds text or a number, e.g. {{ $json.subject }}.',
		);
	}
	const invalidDate = () =>
		notText(
			ctx,
			label,
			itemIndex,
			'an invalid date',
			'Map a field that holds text, e.g. {{ $json.subject }}.',
		);
	if (value instanceof Date) {
		if (Number.isFinite(value.getTime())) return value.toISOString();
		throw invalidDate();
	}
	if (typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		// A Luxon DateTime ($now, $today, DateTime.fromISO(…)): its ISO text, with its offset.
		const iso = (value as { toISO: () => unknown }).toISO();
		if (typeof iso === 'string') return iso;
		throw invalidDate();
	}
	if (Array.isArray(value)) {
		throw notText(
			ctx,
			label,
			itemIndex,
			'a list (array)',
			`It holds ${preview(value)}. Map one element, e.g. {{ $json.tags[0] }}, ` +
				'or join them into one text, e.g. {{ $json.tags.join(", ") }}.',
		);
	}
	const what = typeof value === 'object' ? 'an object' : `a ${typeof value}`;
	throw notText(
		ctx,
		label,
		itemIndex,
		what,
		`It holds ${preview(value)}. Map a field inside it that holds ` +
			'text, e.g. {{ $json.customer.name }}, or write it as text in ' +
			'the expression, e.g. {{ JSON.stringify($json.details) }}.',
	);
}

function notText(
	ctx: IExecuteFunctions | IPollFunctions,
	label: string,
	itemIndex: number,
	what: string,
	description: string,
) {
	return invalid(ctx, itemIndex, `${label} of item ${itemIndex} is ${what}, not text`, description);
}

/** The start of a value as JSON, for messages; never throws (circular, bigint, no prototype). */
function preview(value: unknown): string {
	let json: string | undefined;
	try {
		json = JSON.stringify(value);
	} catch {
		json = undefined;
	}
	if (json === undefined) return 'a value that cannot be shown as JSON';
	return json.length > 80 ? `${json.slice(0, 77)}...` : json;
}

/**
 * The set text fields of a collection (Additional Fields,
 * Update Fields); an empty text counts as not set.
 */
export function readTexts(
	ctx: IExecuteFunctions,
	fields: IDataObject,
	labels: Record<string, string>,
	itemIndex: number,
): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, label] of Object.entries(labels)) {
		const text = toText(ctx, fields[key], label, itemIndex);
		if (text !== undefined && text !== '') out[key] = text;
	}
	return out;
}

export function checkEmail(
	ctx: IExecuteFunctions,
	value: string,
	label: string,
	itemIndex: number,
): string {
	const email = value.trim();
	if (!EMAIL.test(email)) {
		throw invalid(
			ctx,
			itemIndex,
			`${label} "${email}" is not a valid e-mail address`,
			'Use an address like name@example.com.',
		);
	}
	return email;
}
