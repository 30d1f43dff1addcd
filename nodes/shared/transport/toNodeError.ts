import { NodeOperationError, type INode } from 'n8n-workflow';

type NodeError = Error & { itemIndex?: number; context?: { itemIndex?: number } };

/**
 * Keeps an error n8n already describes well (NodeApiError, NodeOperationError: matched by name
 * too, as the host's n8n-workflow may be another copy than ours) and wraps anything else, so the
 * failed item is always named.
 */
export function toNodeError(node: INode, error: unknown, itemIndex: number): NodeError {
	const known = error as NodeError;
	if (known instanceof Error && (known.name === 'NodeApiError' || known.name === 'NodeOperationError')) {
		if (known.context && known.context.itemIndex === undefined) known.context.itemIndex = itemIndex;
		return known;
	}
	return new NodeOperationError(node, known instanceof Error ? known : String(error), { itemIndex });
}
