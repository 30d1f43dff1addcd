import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

/**
 * Stands in for n8n's Sticky Note (`n8n-nodes-base.stickyNote`) so example workflows with
 * notes load here as in the editor: no inputs, no outputs, never executed.
 */
export class StickyNote implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Sticky Note',
		name: 'stickyNote',
		group: ['input'],
		version: [1, 2],
		description: 'Make your workflow easier to understand',
		defaults: { name: 'Sticky Note' },
		inputs: [],
		outputs: [],
		properties: [{ displayName: 'Content', name: 'content', type: 'string', default: '' }],
	};
}
