import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

import { loadPackageTypes } from './packageTypes';

const added = new WeakMap<object, Map<string, INodeType | IVersionedNodeType>>();

/**
 * Makes more node types known to the harness (for this test file: jest gives each file its own
 * module registry, so its own loaded types): stand-ins for n8n-nodes-base nodes that example
 * workflows use, or a node's AI tool variant. `packageTypes.tsx` registers a fixed set; this wraps
 * the loaded `INodeTypes.getByName` so the set can grow without editing it. Types given here take
 * precedence over the package's, and a later call adds to (or replaces names of) an earlier one.
 */
export async function addNodeTypes(types: Record<string, INodeType | IVersionedNodeType>): Promise<void> {
	const { nodeTypes } = await loadPackageTypes();
	let extra = added.get(nodeTypes);
	if (!extra) {
		const own = new Map<string, INodeType | IVersionedNodeType>();
		const base = nodeTypes.getByName.bind(nodeTypes);
		nodeTypes.getByName = (nodeType) => own.get(nodeType) ?? base(nodeType);
		added.set(nodeTypes, own);
		extra = own;
	}
	for (const [name, type] of Object.entries(types)) extra.set(name, type);
}
