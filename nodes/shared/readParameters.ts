/**
 * Reads and checks the node's parameters for one item before any request is made: a missing
 * subject, a malformed e-mail or broken JSON is reported on the item it belongs to, with what
 * to fix, and nothing is sent.
 */
import { NodeOperationError, type IDataObject, type IExecuteFunctions, type IPollFunctions } from 'n8n-workflow';

import { parseServiceTimestamp } from './serviceTimestamp';
import { CUSTOM_VALUE } from './ticketFields';

// Deliberately loose: one @, something on each side, a dot in the domain, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const SAFE_ID = /^(?!\.{1,2}$)[^/?#\s]+$/;

function invalid(ctx: IExecuteFunctions | IPollFunctions, itemIndex: number, message: string, description: string) {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

export function requireText(ctx: IExecuteFunctions, name: string, label: string, itemIndex: number): string {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	const text = typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
	if (text.trim() === '') {
		throw invalid(ctx, itemIndex, `${label} is empty`, `Fill in ${label}, or map a field that has a value for item ${itemIndex}.`);
	}
	return text;
}

export function checkEmail(ctx: IExecuteFunctions, value: string, label: string, itemIndex: number): string {
	const email = value.trim();
	if (!EMAIL.test(email)) {
		throw invalid(ctx, itemIndex, `${label} "${email}" is not a valid e-mail address`, 'Use an address like name@example.com.');
	}
	return email;
}

export function parseCustomFields(ctx: IExecuteFunctions, raw: unknown, itemIndex: number): IDataObject {
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
		throw invalid(ctx, itemIndex, 'Custom Fields (JSON) must be a JSON object', 'Write a JSON object such as {"tags": ["vip"]}.');
	}
	return parsed as IDataObject;
}

/**
 * Status and priority from a collection of ticketStateFields: each the listed value, or the
 * Custom field's text when Custom is chosen; undefined when not set.
 */
export function readTicketState(
	ctx: IExecuteFunctions | IPollFunctions,
	fields: IDataObject,
	itemIndex: number,
): { status?: string; priority?: string } {
	return { status: readChoice(ctx, fields, 'status', itemIndex), priority: readChoice(ctx, fields, 'priority', itemIndex) };
}

function readChoice(ctx: IExecuteFunctions | IPollFunctions, fields: IDataObject, name: 'priority' | 'status', itemIndex: number): string | undefined {
	const value = fields[name];
	if (value === undefined) return undefined;
	if (value !== CUSTOM_VALUE) return String(value);
	const label = name === 'priority' ? 'Priority' : 'Status';
	const custom = fields[`custom${label}`];
	const text = typeof custom === 'string' ? custom.trim() : '';
	if (!text) throw invalid(ctx, itemIndex, `Custom ${label} is empty`, `${label} is set to Custom: add Custom ${label} with the value to send.`);
	return text;
}

/** The id from a resource locator, checked and ready to put in a path. */
export function readId(ctx: IExecuteFunctions, name: string, resource: string, itemIndex: number): { id: string; path: string } {
	const value = ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	const id = String(value ?? '').trim();
	if (id === '') {
		throw invalid(ctx, itemIndex, `No ${resource} was chosen`, `Pick a ${resource} from the list or enter its ID.`);
	}
	if (!SAFE_ID.test(id)) {
		throw invalid(ctx, itemIndex, `"${id}" is not a valid ${resource} ID`, 'An ID contains no spaces, slashes, "?" or "#".');
	}
	return { id, path: encodeURIComponent(id) };
}

/** How Get Many reads the list: every page, up to a limit, or the one page at a cursor. */
export type Paging = { mode: 'all' } | { mode: 'limit'; limit: number } | { mode: 'onePage'; pageSize: number; cursor?: string };

export function readPaging(ctx: IExecuteFunctions, itemIndex: number): Paging {
	if (ctx.getNodeParameter('pagination', itemIndex, 'auto') !== 'onePage') {
		const limit = readLimit(ctx, itemIndex);
		return limit === undefined ? { mode: 'all' } : { mode: 'limit', limit };
	}
	const pageSize = ctx.getNodeParameter('pageSize', itemIndex, 100) as number;
	if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
		throw invalid(ctx, itemIndex, `Page Size must be a whole number from 1 to 100 (got ${pageSize})`, 'The service returns at most 100 items per page.');
	}
	const raw = ctx.getNodeParameter('cursor', itemIndex, '') as unknown;
	if (raw !== undefined && raw !== null && typeof raw !== 'string') {
		throw invalid(ctx, itemIndex, 'Cursor must be text', 'Map the next_cursor of the previous page, e.g. {{ $json.next_cursor }}, or leave Cursor empty for the first page.');
	}
	const cursor = (raw ?? '').trim();
	return { mode: 'onePage', pageSize, cursor: cursor === '' ? undefined : cursor };
}

/**
 * A date and time as epoch milliseconds, read like the service's own timestamps
 * (parseServiceTimestamp): an ISO 8601 text (without zone: UTC, whatever the machine's zone),
 * Unix time in seconds or milliseconds, a JavaScript Date, or a Luxon DateTime from an
 * expression such as `{{ $now.minus({ days: 1 }) }}`. Empty means "not set".
 */
export function readDateTime(ctx: IExecuteFunctions, value: unknown, label: string, itemIndex: number): number | undefined {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return undefined;
	const luxon = typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function';
	const ms = parseServiceTimestamp(luxon ? (value as { toISO: () => unknown }).toISO() : value);
	if (ms === undefined) {
		const shown = typeof value === 'string' ? `"${value}"` : typeof value;
		throw invalid(
			ctx,
			itemIndex,
			`${label} ${shown} is not a date and time`,
			'Use an ISO 8601 date and time such as 2025-06-01T12:00:00Z (without a zone it is read as UTC), e.g. the created_at of a ticket, or Unix time in seconds or milliseconds.',
		);
	}
	return ms;
}

/** Return All, or a Limit of at least 1. */
function readLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	const limit = ctx.getNodeParameter('limit', itemIndex, 50) as number;
	if (!Number.isInteger(limit) || limit < 1) {
		throw invalid(ctx, itemIndex, `Limit must be a whole number of at least 1 (got ${limit})`, 'Set Limit to 1 or more, or turn on Return All.');
	}
	return limit;
}

/** Drops empty strings from a collection before it is sent. */
export function compact(fields: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(fields)) {
		if (value === '' || value === undefined) continue;
		out[key] = value;
	}
	return out;
}

/** An update must change something: an empty PATCH is refused here rather than by the service. */
export function assertSomethingToUpdate(ctx: IExecuteFunctions, body: IDataObject, itemIndex: number): void {
	if (Object.keys(body).length === 0) {
		throw invalid(ctx, itemIndex, 'Nothing to update', 'Add at least one field under Update Fields.');
	}
}
