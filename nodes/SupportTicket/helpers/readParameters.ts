/**
 * Reads and checks the node's parameters for one item before any request is made: a missing
 * subject, a malformed e-mail or broken JSON is reported on the item it belongs to, with what
 * to fix, and nothing is sent.
 */
import { NodeOperationError, type IDataObject, type IExecuteFunctions, type IPollFunctions } from 'n8n-workflow';

import { CUSTOM_VALUE } from '../actions/common.descriptions';

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

/** An option list value, or the free-text value beside it when the user chose "Custom". */
export function resolveChoice(
	ctx: IExecuteFunctions | IPollFunctions,
	fields: IDataObject,
	name: 'priority' | 'status',
	itemIndex: number,
): string | undefined {
	const value = fields[name];
	if (value === undefined) return undefined;
	if (value !== CUSTOM_VALUE) return String(value);
	const customName = name === 'priority' ? 'customPriority' : 'customStatus';
	const label = name === 'priority' ? 'Custom Priority' : 'Custom Status';
	const custom = typeof fields[customName] === 'string' ? (fields[customName] as string).trim() : '';
	if (!custom) {
		throw invalid(ctx, itemIndex, `${label} is empty`, `${name === 'priority' ? 'Priority' : 'Status'} is set to Custom: add ${label} with the value to send.`);
	}
	return custom;
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

/** Return All, or a Limit of at least 1. */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	const limit = ctx.getNodeParameter('limit', itemIndex, 50) as number;
	if (!Number.isInteger(limit) || limit < 1) {
		throw invalid(ctx, itemIndex, `Limit must be a whole number of at least 1 (got ${limit})`, 'Set Limit to 1 or more, or turn on Return All.');
	}
	return limit;
}

/** Drops the node's own helper keys and empty strings from a collection before it is sent. */
export function compact(fields: IDataObject, omit: string[]): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(fields)) {
		if (omit.includes(key) || value === '' || value === undefined) continue;
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
