import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

/** Test-only: emits the items given as JSON, like a Code node returning fixed data. */
export class Items implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Items (test)',
		name: 'items',
		group: ['transform'],
		version: 1,
		description: 'Emits fixed items',
		defaults: { name: 'Items' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [{ displayName: 'JSON', name: 'json', type: 'string', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = JSON.parse(
			this.getNodeParameter('json', 0) as string,
		) as INodeExecutionData['json'][];
		return [items.map((json) => ({ json, pairedItem: { item: 0 } }))];
	}
}
