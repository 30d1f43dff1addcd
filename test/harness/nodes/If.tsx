import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

/**
 * Stands in for n8n's If node (`n8n-nodes-base.if`, version 2.x) so example workflows run here as
 * in n8n. The conditions are a `filter` parameter, evaluated by n8n itself: n8n-core's
 * `getNodeParameter(…, { extractValue: true })` runs n8n-workflow's `executeFilter` on them, as
 * the real node does. Items go to output 0 ("true") or 1 ("false").
 */
export class If implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'If',
		name: 'if',
		group: ['transform'],
		version: [2, 2.1, 2.2],
		description: 'Route items to different branches (true/false)',
		defaults: { name: 'If' },
		inputs: ['main'],
		outputs: ['main', 'main'],
		outputNames: ['true', 'false'],
		properties: [
			{ displayName: 'Conditions', name: 'conditions', type: 'filter', default: {} },
			{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const trueItems: INodeExecutionData[] = [];
		const falseItems: INodeExecutionData[] = [];
		this.getInputData().forEach((item, itemIndex) => {
			const pass = this.getNodeParameter('conditions', itemIndex, false, { extractValue: true }) as boolean;
			(pass ? trueItems : falseItems).push({ ...item, pairedItem: { item: itemIndex } });
		});
		return [trueItems, falseItems];
	}
}
