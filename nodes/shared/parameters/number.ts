import type { IExecuteFunctions } from 'n8n-workflow';

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
