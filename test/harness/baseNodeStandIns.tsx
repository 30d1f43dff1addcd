// Manual Trigger and Sticky Note under n8n's type names, so workflow JSON runs as saved; any other n8n node runs in real
// n8n (n8n-nodes-base adds 397 packages).
import type {
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';

/** Manual Trigger (`n8n-nodes-base.manualTrigger` 1): in a manual run it emits one empty item. */
export class ManualTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Runs the workflow on clicking a button in n8n',
		defaults: { name: 'When clicking ‘Execute workflow’' },
		inputs: [],
		outputs: ['main'],
		properties: [],
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		return { manualTriggerFunction: async () => this.emit([this.helpers.returnJsonArray([{}])]) };
	}
}

/** Sticky Note (`n8n-nodes-base.stickyNote` 1–2): no inputs, no outputs, never executed. */
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

/** Every stand-in under n8n's type name. */
export const BASE_NODE_STAND_INS: Record<string, INodeType> = {
	'n8n-nodes-base.manualTrigger': new ManualTrigger(),
	'n8n-nodes-base.stickyNote': new StickyNote(),
};
