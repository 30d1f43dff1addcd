import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

/**
 * Stands in for n8n's Execute Workflow Trigger (`n8n-nodes-base.executeWorkflowTrigger`, "When
 * Executed by Another Workflow", input data mode "Accept all data"): the start of a sub-workflow,
 * passing on the items the calling workflow sent, here the previous page's cursor.
 */
export class ExecuteWorkflowTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Execute Workflow Trigger',
		name: 'executeWorkflowTrigger',
		group: ['trigger'],
		version: [1, 1.1],
		description: 'Runs the flow when called by another workflow',
		defaults: { name: 'When Executed by Another Workflow' },
		inputs: [],
		outputs: ['main'],
		properties: [{ displayName: 'Input Data Mode', name: 'inputSource', type: 'string', default: 'passthrough' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}
