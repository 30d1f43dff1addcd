import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { isWholeNumber, readNumber } from '../parameters/number';

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
			'Timeout must be a whole number of milliseconds from ' +
				`1 to ${MAX_TIMEOUT_MS}, not ${JSON.stringify(value)}`,
			{
				description:
					`Set Options → Timeout to e.g. ${DEFAULT_TIMEOUT_MS} ` +
					'(one minute), or remove it to use that default.',
				itemIndex,
			},
		);
	}
	return value;
}
