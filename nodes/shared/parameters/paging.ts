import type { IExecuteFunctions } from 'n8n-workflow';

import { invalid } from './invalid';
import { isWholeNumber, readNumber } from './number';

/**
 * How Get Many reads the list: every page, up to a limit, or the page(s) of one run from a cursor.
 */
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
			'Map the next_cursor of the previous page, e.g. {{ $json.next_cursor }}, ' +
				'or leave Cursor empty for the first page.',
		);
	}
	const cursor = (raw ?? '').trim();
	return { mode: 'onePage', pageSize, pages, cursor: cursor === '' ? undefined : cursor };
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
