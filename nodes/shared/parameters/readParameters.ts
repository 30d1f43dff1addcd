/** Checks an item's parameters before any request, so bad input fails that item with what to fix and sends nothing. */
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IPollFunctions,
} from 'n8n-workflow';

import { parseServiceTimestamp } from './serviceTimestamp';
import { INVISIBLE, SAFE_ID } from './idPattern';

// Deliberately loose: one @, something on each side, a dot in the domain, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function invalid(
	ctx: IExecuteFunctions | IPollFunctions,
	itemIndex: number,
	message: string,
	description: string,
) {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

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
 * A mapped value as text (numbers and dates too; undefined for none). Objects and lists are refused:
 * String() would send "[object Object]" or "a,b".
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
	if (value instanceof Date) {
		if (Number.isFinite(value.getTime())) return value.toISOString();
		throw notText(
			ctx,
			label,
			itemIndex,
			'an invalid date',
			'Map a field that holds text, e.g. {{ $json.subject }}.',
		);
	}
	if (typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		// A Luxon DateTime ($now, $today, DateTime.fromISO(…)): its ISO text, with its offset.
		const iso = (value as { toISO: () => unknown }).toISO();
		if (typeof iso === 'string') return iso;
		throw notText(
			ctx,
			label,
			itemIndex,
			'an invalid date',
			'Map a field that holds text, e.g. {{ $json.subject }}.',
		);
	}
	if (Array.isArray(value)) {
		throw notText(
			ctx,
			label,
			itemIndex,
			'a list (array)',
			`It holds ${preview(value)}. Map one element, e.g. {{ $json.tags[0] }}, or join them into one text, e.g. {{ $json.tags.join(", ") }}.`,
		);
	}
	const what = typeof value === 'object' ? 'an object' : `a ${typeof value}`;
	throw notText(
		ctx,
		label,
		itemIndex,
		what,
		`It holds ${preview(value)}. Map a field inside it that holds text, e.g. {{ $json.customer.name }}, or write it as text in the expression, e.g. {{ JSON.stringify($json.details) }}.`,
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

/** The set text fields of a collection (Additional Fields, Update Fields); an empty text counts as not set. */
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

export function parseCustomFields(
	ctx: IExecuteFunctions,
	raw: unknown,
	itemIndex: number,
): IDataObject {
	if (raw === undefined || raw === null || raw === '') return {};
	let parsed: unknown = raw;
	if (typeof raw === 'string') {
		try {
			parsed = JSON.parse(raw);
		} catch (error) {
			throw invalid(
				ctx,
				itemIndex,
				'Custom Fields (JSON) is not valid JSON',
				`${(error as Error).message}. Write a JSON object such as {"tags": ["vip"]}.`,
			);
		}
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw invalid(
			ctx,
			itemIndex,
			'Custom Fields (JSON) must be a JSON object',
			'Write a JSON object such as {"tags": ["vip"]}.',
		);
	}
	if (typeof raw === 'string') {
		const changed = firstInexactNumber(raw);
		if (changed) {
			throw invalid(
				ctx,
				itemIndex,
				`Custom Fields (JSON) of item ${itemIndex} has the number ${changed.written}, which would be sent as ${changed.sent}`,
				`Numbers are exact only up to 15 significant digits (whole numbers up to 2^53 - 1). Write it in quotes, "${changed.written}", if the service accepts text, or round it.`,
			);
		}
	}
	return parsed as IDataObject;
}

const JSON_NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The first number the body (built from doubles) would not carry as written, e.g. 9007199254740993; 1e2 → 100 is fine. */
function firstInexactNumber(json: string): { written: string; sent: string } | undefined {
	for (let i = 0; i < json.length; i++) {
		const c = json[i];
		if (c === '"') {
			// Skip the string: JSON.parse accepted the text, so it ends at an unescaped quote.
			for (i++; json[i] !== '"'; i++) if (json[i] === '\\') i++;
			continue;
		}
		if (c !== '-' && (c < '0' || c > '9')) continue;
		JSON_NUMBER.lastIndex = i;
		const written = JSON_NUMBER.exec(json)?.[0] ?? c;
		const sent = JSON.stringify(Number(written));
		if (decimalValue(written) !== decimalValue(sent)) return { written, sent };
		i += written.length - 1;
	}
	return undefined;
}

/** A JSON number's exact value as sign, digits and exponent without redundant zeros, e.g. "1.50" and "15e-1" → "+15e-1". */
function decimalValue(number: string): string {
	const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(number);
	if (!match) return number; // "null": not a number at all
	const [, sign, whole, fraction = '', exponent = '0'] = match;
	let digits = (whole + fraction).replace(/^0+/, '');
	if (digits === '') return '0';
	let power = Number(exponent) - fraction.length;
	const trailing = /0*$/.exec(digits)?.[0].length ?? 0;
	digits = digits.slice(0, digits.length - trailing);
	power += trailing;
	return `${sign === '-' ? '-' : '+'}${digits}e${power}`;
}

/** Status and priority from ticketStateFields: the listed value, or the Custom field's text. */
export function readTicketState(
	ctx: IExecuteFunctions | IPollFunctions,
	fields: IDataObject,
	itemIndex: number,
): { status?: string; priority?: string } {
	return {
		status: readChoice(ctx, fields, 'status', itemIndex),
		priority: readChoice(ctx, fields, 'priority', itemIndex),
	};
}

function readChoice(
	ctx: IExecuteFunctions | IPollFunctions,
	fields: IDataObject,
	name: 'priority' | 'status',
	itemIndex: number,
): string | undefined {
	const label = name === 'priority' ? 'Priority' : 'Status';
	const value = toText(ctx, fields[name], label, itemIndex);
	if (value === undefined) return undefined;
	if (value !== CUSTOM_VALUE) return value;
	const text = (toText(ctx, fields[`custom${label}`], `Custom ${label}`, itemIndex) ?? '').trim();
	if (!text)
		throw invalid(
			ctx,
			itemIndex,
			`Custom ${label} is empty`,
			`${label} is set to Custom: add Custom ${label} with the value to send.`,
		);
	return text;
}

/** The id from a resource locator, checked and ready to put in a path. */
export function readId(
	ctx: IExecuteFunctions,
	name: string,
	resource: string,
	itemIndex: number,
): { id: string; path: string } {
	const value = ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	const id = (
		toText(ctx, value, `${resource === 'ticket' ? 'Ticket' : 'Customer'} ID`, itemIndex) ?? ''
	).trim();
	if (id === '') {
		throw invalid(
			ctx,
			itemIndex,
			`No ${resource} was chosen`,
			`Pick a ${resource} from the list or enter its ID.`,
		);
	}
	if (!SAFE_ID.test(id)) {
		const codePoint = (c: string) =>
			`U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
		const hidden = id.match(INVISIBLE);
		throw invalid(
			ctx,
			itemIndex,
			`"${id.replace(INVISIBLE, (c) => `<${codePoint(c)}>`)}" is not a valid ${resource} ID`,
			hidden
				? `It contains ${codePoint(hidden[0])}, an invisible or control character often copied along with an ID. Retype the ID or clean the mapped value.`
				: 'An ID contains no spaces, slashes, "?", "#" or invisible characters.',
		);
	}
	return { id, path: encodeURIComponent(id) };
}

/**
 * A number parameter. n8n passes an expression's result as it is, so "10" is text: read it as 10,
 * as n8n's own nodes do. Any other value comes back unchanged, for the caller's check and message.
 */
export function readNumber(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: number,
): unknown {
	const value = ctx.getNodeParameter(name, itemIndex, fallback) as unknown;
	if (typeof value !== 'string' || value.trim() === '') return value;
	const number = Number(value);
	return Number.isFinite(number) ? number : value;
}

export function isWholeNumber(value: unknown, min: number, max: number): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** How Get Many reads the list: every page, up to a limit, or the page(s) of one run from a cursor. */
export type Paging =
	| { mode: 'all' }
	| { mode: 'limit'; limit: number }
	| { mode: 'onePage'; pageSize: number; pages: number; cursor?: string };

export function readPaging(ctx: IExecuteFunctions, itemIndex: number): Paging {
	if (ctx.getNodeParameter('pagination', itemIndex, 'auto') !== 'onePage') {
		const limit = readLimit(ctx, itemIndex);
		return limit === undefined ? { mode: 'all' } : { mode: 'limit', limit };
	}
	const pageSize = readNumber(ctx, 'pageSize', itemIndex, 100);
	if (!isWholeNumber(pageSize, 1, 100)) {
		const message = `Page Size must be a whole number from 1 to 100 (got ${String(pageSize)})`;
		throw invalid(ctx, itemIndex, message, 'The service returns at most 100 items per page.');
	}
	const pages = readNumber(ctx, 'pagesPerRun', itemIndex, 1);
	if (!isWholeNumber(pages, 1, 100)) {
		const message = `Pages per Run must be a whole number from 1 to 100 (got ${String(pages)})`;
		const use = 'Use 1 for one page per run, or e.g. 10 to read 10 pages in one run.';
		throw invalid(ctx, itemIndex, message, use);
	}
	const raw = ctx.getNodeParameter('cursor', itemIndex, '') as unknown;
	if (raw !== undefined && raw !== null && typeof raw !== 'string') {
		throw invalid(
			ctx,
			itemIndex,
			'Cursor must be text',
			'Map the next_cursor of the previous page, e.g. {{ $json.next_cursor }}, or leave Cursor empty for the first page.',
		);
	}
	const cursor = (raw ?? '').trim();
	return { mode: 'onePage', pageSize, pages, cursor: cursor === '' ? undefined : cursor };
}

/**
 * Epoch ms, read like the service's timestamps; an ISO text without a zone is read in `zone` (a date picked
 * in the field, as n8n nodes do), else as UTC so a created_at fed back means the service's instant.
 */
export function readDateTime(
	ctx: IExecuteFunctions,
	value: unknown,
	label: string,
	itemIndex: number,
	zone?: string,
): number | undefined {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
		return undefined;
	const luxon =
		typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function';
	let ms = parseServiceTimestamp(luxon ? (value as { toISO: () => unknown }).toISO() : value);
	if (ms === undefined) {
		const shown = typeof value === 'string' ? `"${value}"` : typeof value;
		throw invalid(
			ctx,
			itemIndex,
			`${label} ${shown} is not a date and time`,
			`Use an ISO 8601 date and time such as 2025-06-01T12:00:00Z (without a zone: ${zone ? `the workflow's time zone, ${zone}` : 'UTC'}), or Unix time in seconds or milliseconds.`,
		);
	}
	if (zone !== undefined && typeof value === 'string' && ZONELESS_ISO.test(value.trim())) {
		try {
			ms = wallClockToInstant(ms, zone);
		} catch {
			throw invalid(
				ctx,
				itemIndex,
				`The workflow's time zone "${zone}" is unknown`,
				`Choose a time zone in the workflow's settings, or give ${label} with a zone, e.g. 2025-06-01T12:00:00Z.`,
			);
		}
	}
	return ms;
}

/** ISO 8601 dates and date-times without a zone, as the date picker stores them. */
const ZONELESS_ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/i;

const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `zone` at `instant`, as epoch milliseconds of that clock reading in UTC. */
function wallClockAt(instant: number, zone: string): number {
	let format = wallClockFormats.get(zone);
	if (!format) {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
		wallClockFormats.set(zone, format);
	}
	const part: Record<string, number> = {};
	for (const { type, value } of format.formatToParts(new Date(instant))) part[type] = Number(value);
	const millis = ((instant % 1000) + 1000) % 1000;
	return (
		Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second) + millis
	);
}

/**
 * The instant the clock in `zone` shows `wallClock`. A repeated time is its first occurrence (unlike Luxon:
 * the first loses no ticket in between); a skipped one moves forward by the gap, as Luxon does.
 */
function wallClockToInstant(wallClock: number, zone: string): number {
	const day = 86_400_000;
	const offsetBefore = wallClockAt(wallClock - day, zone) - (wallClock - day);
	const offsetAfter = wallClockAt(wallClock + day, zone) - (wallClock + day);
	const shows = [wallClock - offsetBefore, wallClock - offsetAfter].filter(
		(instant) => wallClockAt(instant, zone) === wallClock,
	);
	return shows.length > 0 ? Math.min(...shows) : wallClock - offsetBefore;
}

/** Return All, or a Limit of at least 1. */
function readLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	const limit = readNumber(ctx, 'limit', itemIndex, 50);
	if (!isWholeNumber(limit, 1, Number.POSITIVE_INFINITY)) {
		const message = `Limit must be a whole number of at least 1 (got ${String(limit)})`;
		throw invalid(ctx, itemIndex, message, 'Set Limit to 1 or more, or turn on Return All.');
	}
	return limit;
}

/** An update must change something: an empty PATCH is refused here rather than by the service. */
export function assertSomethingToUpdate(
	ctx: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): void {
	if (Object.keys(body).length === 0) {
		throw invalid(
			ctx,
			itemIndex,
			'Nothing to update',
			'Add at least one field under Update Fields.',
		);
	}
}

/** Marks the "Custom" entry of an option list; the matching free-text field then holds the value. */
export const CUSTOM_VALUE = '__custom__';

/** How long one attempt waits for an answer unless Options → Timeout says otherwise. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** An hour: longer than any answer worth waiting for, short enough to end a run that is stuck. */
export const MAX_TIMEOUT_MS = 3_600_000;

/** Options → Timeout of one item, checked before any request is sent. */
export function readTimeout(ctx: IExecuteFunctions, itemIndex: number): number {
	const value = readNumber(ctx, 'options.timeout', itemIndex, DEFAULT_TIMEOUT_MS);
	if (!isWholeNumber(value, 1, MAX_TIMEOUT_MS)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Timeout must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, not ${JSON.stringify(value)}`,
			{
				description: `Set Options → Timeout to e.g. ${DEFAULT_TIMEOUT_MS} (one minute), or remove it to use that default.`,
				itemIndex,
			},
		);
	}
	return value;
}
