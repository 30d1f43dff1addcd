import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

/**
 * Split Out (`n8n-nodes-base.splitOut`) as n8n 2.x's own node builds its items for Include "No
 * Other Fields": each list entry is copied into a new object (`{ ...entry }`), so a loop that
 * keeps every node's output holds that copy as well as the page. The harness's stand-in passes
 * the entries themselves on, which is enough for tests but would understate what n8n retains.
 */
export class CopyingSplitOut implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Split Out',
		name: 'splitOut',
		group: ['transform'],
		version: 1,
		description: 'Turn a list inside item(s) into separate items',
		defaults: { name: 'Split Out' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [
			{ displayName: 'Fields To Split Out', name: 'fieldToSplitOut', type: 'string', default: '' },
			{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		this.getInputData().forEach((item, itemIndex) => {
			const field = this.getNodeParameter('fieldToSplitOut', itemIndex) as string;
			const list = item.json[field];
			if (!Array.isArray(list)) throw new NodeOperationError(this.getNode(), `The field "${field}" is not a list`, { itemIndex });
			for (const entry of list as IDataObject[]) out.push({ json: { ...entry }, pairedItem: { item: itemIndex } });
		});
		return [out];
	}
}
