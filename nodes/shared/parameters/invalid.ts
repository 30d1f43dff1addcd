import { NodeOperationError, type IExecuteFunctions, type IPollFunctions } from 'n8n-workflow';

/**
 * Refuses an item's parameter before any request, so bad input fails
 * that item with what to fix and sends nothing.
 */
export function invalid(
	ctx: IExecuteFunctions | IPollFunctions,
	itemIndex: number,
	message: string,
	description: string,
) {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}
