// No Operation, If, Split Out and Code for bench/imports.tsx only, each mirroring n8n-nodes-base 2.41.1 for the parameters
// it lists and throwing on others.
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { addNodeTypes } from '../test/harness/packageTypes';

/** Throws when a saved parameter has a value the stand-in does not implement. */
function expectParameter(
	context: IExecuteFunctions,
	standIn: string,
	name: string,
	supported: unknown[],
): void {
	const actual = context.getNode().parameters[name] ?? supported[0];
	if (supported.some((value) => JSON.stringify(value) === JSON.stringify(actual))) return;
	throw new NodeOperationError(
		context.getNode(),
		`The bench's ${standIn} stand-in does not implement ${name} = ${JSON.stringify(actual)} (supported: ${supported.map((v) => JSON.stringify(v)).join(', ')}); extend it in bench/standIns.tsx`,
	);
}

/** No Operation (`n8n-nodes-base.noOp` 1): passes items on unchanged. */
export class NoOp implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'No Operation, do nothing',
		name: 'noOp',
		group: ['organization'],
		version: 1,
		description: 'No Operation',
		defaults: { name: 'No Operation, do nothing' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

/** If 2–2.2: `conditions` evaluated by n8n-workflow's own `executeFilter` (through getNodeParameter), as the real node does. */
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
			// n8n's options, declared so that a workflow's value reaches the check (the engine drops unknown ones).
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				default: {},
				options: [
					{ displayName: 'Ignore Case', name: 'ignoreCase', type: 'boolean', default: true },
					{
						displayName: 'Less Strict Type Validation',
						name: 'looseTypeValidation',
						type: 'boolean',
						default: false,
					},
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		expectParameter(this, 'If', 'options', [{}]);
		const trueItems: INodeExecutionData[] = [];
		const falseItems: INodeExecutionData[] = [];
		this.getInputData().forEach((item, itemIndex) => {
			const pass = this.getNodeParameter('conditions', itemIndex, false, {
				extractValue: true,
			}) as boolean;
			(pass ? trueItems : falseItems).push({ ...item, pairedItem: { item: itemIndex } });
		});
		return [trueItems, falseItems];
	}
}

/** Split Out 1: one item per entry of `fieldToSplitOut`, an object entry copied as n8n does (so the bench counts the copy). */
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
			// n8n's choices and options, declared so that a workflow's value reaches the check.
			{
				displayName: 'Include',
				name: 'include',
				type: 'options',
				default: 'noOtherFields',
				options: [
					{ name: 'No Other Fields', value: 'noOtherFields' },
					{ name: 'All Other Fields', value: 'allOtherFields' },
					{ name: 'Selected Other Fields', value: 'selectedOtherFields' },
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				default: {},
				options: [
					{
						displayName: 'Disable Dot Notation',
						name: 'disableDotNotation',
						type: 'boolean',
						default: false,
					},
					{
						displayName: 'Destination Field Name',
						name: 'destinationFieldName',
						type: 'string',
						default: '',
					},
					{ displayName: 'Include Binary', name: 'includeBinary', type: 'boolean', default: false },
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		expectParameter(this, 'Split Out', 'include', ['noOtherFields']);
		expectParameter(this, 'Split Out', 'options', [{}]);
		const out: INodeExecutionData[] = [];
		this.getInputData().forEach((item, itemIndex) => {
			const field = this.getNodeParameter('fieldToSplitOut', itemIndex) as string;
			if (/[,.]/.test(field))
				throw new NodeOperationError(
					this.getNode(),
					`The bench's Split Out stand-in does not implement fieldToSplitOut = ${JSON.stringify(field)} (one top-level field only); extend it in bench/standIns.tsx`,
				);
			const list = item.json[field];
			if (!Array.isArray(list))
				throw new NodeOperationError(this.getNode(), `The field "${field}" is not a list`, {
					itemIndex,
				});
			for (const entry of list) {
				const json =
					entry && typeof entry === 'object' && !Array.isArray(entry)
						? { ...(entry as IDataObject) }
						: { [field]: entry as IDataObject[keyof IDataObject] };
				out.push({ json, pairedItem: { item: itemIndex } });
			}
		});
		return [out];
	}
}

type AsyncFunctionConstructor = new (...args: string[]) => (...args: unknown[]) => Promise<unknown>;
const AsyncFunction = Object.getPrototypeOf(async () => undefined)
	.constructor as AsyncFunctionConstructor;

/** Code 1–2, JavaScript, Run Once for All Items: `$input` and `$()` from n8n-workflow's data proxy; not a sandbox. */
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
			// n8n's choices, declared so that a workflow's value reaches the check.
			{
				displayName: 'Mode',
				name: 'mode',
				type: 'options',
				default: 'runOnceForAllItems',
				options: [
					{ name: 'Run Once for All Items', value: 'runOnceForAllItems' },
					{ name: 'Run Once for Each Item', value: 'runOnceForEachItem' },
				],
			},
			{
				displayName: 'Language',
				name: 'language',
				type: 'options',
				default: 'javaScript',
				options: [
					{ name: 'JavaScript', value: 'javaScript' },
					{ name: 'Python', value: 'pythonNative' },
					{ name: 'Python (legacy)', value: 'python' },
				],
			},
			{
				displayName: 'JavaScript',
				name: 'jsCode',
				type: 'string',
				default: '',
				noDataExpression: true,
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		expectParameter(this, 'Code', 'mode', ['runOnceForAllItems']);
		expectParameter(this, 'Code', 'language', ['javaScript']);
		const proxy = this.getWorkflowDataProxy(0);
		const scope: Record<string, unknown> = {
			$input: proxy.$input,
			$: proxy.$,
		};
		const script = new AsyncFunction(
			...Object.keys(scope),
			this.getNodeParameter('jsCode', 0) as string,
		);
		let returned: unknown;
		try {
			returned = await script(...Object.values(scope));
		} catch (error) {
			if (!(error instanceof ReferenceError)) throw error;
			throw new NodeOperationError(
				this.getNode(),
				`${error.message}: the bench's Code stand-in gives the script only ${Object.keys(scope).join(', ')}; extend it in bench/standIns.tsx`,
			);
		}
		const list = (Array.isArray(returned) ? returned : [returned]) as Array<
			IDataObject | INodeExecutionData
		>;
		return [
			list.map((entry) => {
				const json = (entry && typeof entry.json === 'object' ? entry.json : entry) as IDataObject;
				return { json, pairedItem: { item: 0 } };
			}),
		];
	}
}

/** The bench's stand-ins under n8n's type names. */
export const BENCH_STAND_INS: Record<string, INodeType> = {
	'n8n-nodes-base.noOp': new NoOp(),
	'n8n-nodes-base.if': new If(),
	'n8n-nodes-base.splitOut': new SplitOut(),
	'n8n-nodes-base.code': new Code(),
};

/** Makes the bench's stand-ins known to the harness (for this process, or this jest file). */
export async function registerBenchStandIns(): Promise<void> {
	await addNodeTypes(BENCH_STAND_INS);
}
