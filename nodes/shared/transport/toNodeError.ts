import { NodeOperationError, type INode } from 'n8n-workflow';

type NodeError = Error & { itemIndex?: number; context?: { itemIndex?: number } };

/**
 * Keeps n8n's own errors (matched by name: the host's n8n-workflow may be another
 * copy) and wraps anything else, naming the item.
 */
export function toNodeError(node: INode, error: unknown, itemIndex: number): NodeError {
	const known = error as NodeError;
	if (
		known instanceof Error &&
		(known.name === 'NodeApiError' || known.name === 'NodeOperationError')
	) {
		if (known.context && known.context.itemIndex === undefined) known.context.itemIndex = itemIndex;
		return known;
	}
	return new NodeOperationError(node, known instanceof Error ? known : String(error), {
		itemIndex,
	});
}
