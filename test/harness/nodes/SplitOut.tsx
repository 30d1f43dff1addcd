import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

/**
 * Stands in for n8n's Split Out node (`n8n-nodes-base.splitOut`) in its default use: one item per
 * entry of the array field named in "Fields To Split Out", other fields left out. An object entry
 * is copied into the item's JSON (`{ ...entry }`), as n8n 2.x does, so memory measured through the
 * harness counts that copy too.
 */
export class SplitOut implements INodeType {
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
			{ displayName: 'Include', name: 'include', type: 'options', default: 'noOtherFields', options: [{ name: 'No Other Fields', value: 'noOtherFields' }] },
			{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		this.getInputData().forEach((item, itemIndex) => {
			const field = this.getNodeParameter('fieldToSplitOut', itemIndex) as string;
			const list = item.json[field];
			if (!Array.isArray(list)) throw new NodeOperationError(this.getNode(), `The field "${field}" is not a list`, { itemIndex });
			for (const entry of list) {
				const json = entry && typeof entry === 'object' && !Array.isArray(entry) ? { ...(entry as IDataObject) } : { [field]: entry as IDataObject[keyof IDataObject] };
				out.push({ json, pairedItem: { item: itemIndex } });
			}
		});
		return [out];
	}
}
