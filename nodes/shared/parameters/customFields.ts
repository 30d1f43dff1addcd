import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { invalid } from './invalid';

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
				`Custom Fields (JSON) of item ${itemIndex} has the number ` +
					`${changed.written}, which would be sent as ${changed.sent}`,
				'Numbers are exact only up to 15 significant digits (whole numbers up to 2^53 - 1). ' +
					`Write it in quotes, "${changed.written}", if the service accepts text, or round it.`,
			);
		}
	}
	return parsed as IDataObject;
}

const JSON_NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The first number the body (built from doubles) would not carry as written,
 * e.g. 9007199254740993; 1e2 → 100 is fine.
 */
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

/**
 * A JSON number's exact value as sign, digits and exponent without redundant
 * zeros, e.g. "1.50" and "15e-1" → "+15e-1".
 */
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
