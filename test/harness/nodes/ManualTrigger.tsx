import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

/**
 * Stands in for n8n's Manual Trigger (`n8n-nodes-base.manualTrigger`, not published on its own)
 * so that the same workflow JSON runs here and in a real n8n: it emits one empty item.
 */
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

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [[{ json: {} }]];
	}
}
