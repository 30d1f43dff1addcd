import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

type AsyncFunctionConstructor = new (...args: string[]) => (...args: unknown[]) => Promise<unknown>;
const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as AsyncFunctionConstructor;

/**
 * Stands in for n8n's Code node (`n8n-nodes-base.code`, JavaScript, "Run Once for All Items"),
 * enough for the short scripts of the example workflows. The script sees what n8n gives it from
 * the same engine objects: `$input`, `$json`, `$()`, `$now` from n8n-workflow's data proxy and
 * `$getWorkflowStaticData` from the execution context; it returns items or plain objects. Not a
 * sandbox: tests run only the repository's own example scripts.
 */
export class Code implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Code',
		name: 'code',
		group: ['transform'],
		version: [1, 2],
		description: 'Run custom JavaScript code',
		defaults: { name: 'Code' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [
			{ displayName: 'Mode', name: 'mode', type: 'options', default: 'runOnceForAllItems', options: [{ name: 'Run Once for All Items', value: 'runOnceForAllItems' }] },
			{ displayName: 'Language', name: 'language', type: 'options', default: 'javaScript', options: [{ name: 'JavaScript', value: 'javaScript' }] },
			{ displayName: 'JavaScript', name: 'jsCode', type: 'string', default: '', noDataExpression: true },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const proxy = this.getWorkflowDataProxy(0);
		const scope: Record<string, unknown> = {
			$input: proxy.$input,
			$json: proxy.$json,
			$: proxy.$,
			$now: proxy.$now,
			$getWorkflowStaticData: (type: 'global' | 'node') => this.getWorkflowStaticData(type),
			items: this.getInputData(),
		};
		const script = new AsyncFunction(...Object.keys(scope), this.getNodeParameter('jsCode', 0) as string);
		const returned = await script(...Object.values(scope));
		const list = (Array.isArray(returned) ? returned : [returned]) as Array<IDataObject | INodeExecutionData>;
		return [
			list.map((entry) => {
				const json = (entry && typeof entry.json === 'object' ? entry.json : entry) as IDataObject;
				return { json, pairedItem: { item: 0 } };
			}),
		];
	}
}
