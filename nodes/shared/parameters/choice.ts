import type { IDataObject, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { invalid } from './invalid';
import { toText } from './text';

/**
 * Marks the "Custom" entry of an option list; the matching free-text field then holds the value.
 */
export const CUSTOM_VALUE = '__custom__';

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
