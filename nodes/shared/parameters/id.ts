import type { IExecuteFunctions } from 'n8n-workflow';

import { INVISIBLE, SAFE_ID } from './idPattern';
import { invalid } from './invalid';
import { toText } from './text';

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
				? `It contains ${codePoint(hidden[0])}, an invisible or control character ` +
						'often copied along with an ID. Retype the ID or clean the mapped value.'
				: 'An ID contains no spaces, slashes, "?", "#" or invisible characters.',
		);
	}
	return { id, path: encodeURIComponent(id) };
}
