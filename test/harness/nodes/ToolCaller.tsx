import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

/** What n8n-core hands an agent for each connected tool (a LangChain structured tool). */
interface ConnectedTool {
	name: string;
	description: string;
	invoke(args: IDataObject): Promise<unknown>;
}

// An AI Agent without a model: asks the engine for its `ai_tool` connections as n8n's agents do and calls the ones in
// `calls`; a failing tool reports its error as text, as an agent passes it to the model.
export class ToolCaller implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Tool Caller (test)',
		name: 'toolCaller',
		group: ['transform'],
		version: 1,
		description: 'Calls connected AI tools with fixed arguments',
		defaults: { name: 'Tool Caller' },
		inputs: [
			NodeConnectionTypes.Main,
			{ type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true },
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{
				displayName: 'Calls (JSON)',
				name: 'calls',
				type: 'string',
				default: '[]',
				description: '[{"tool": name, "args": {...}}]',
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const connected = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as
			| ConnectedTool
			| ConnectedTool[];
		const tools = Array.isArray(connected) ? connected : [connected];
		const out: INodeExecutionData[] = [
			{
				json: { tools: tools.map(({ name, description }) => ({ name, description })) },
				pairedItem: { item: 0 },
			},
		];
		const calls = JSON.parse(this.getNodeParameter('calls', 0) as string) as Array<{
			tool: string;
			args: IDataObject;
		}>;
		for (const call of calls) {
			const tool = tools.find((t) => t.name === call.tool);
			if (!tool)
				throw new Error(
					`No tool named ${call.tool}; connected: ${tools.map((t) => t.name).join(', ')}`,
				);
			try {
				const answer = await tool.invoke(call.args);
				out.push({
					json: { tool: call.tool, result: JSON.parse(String(answer)) as IDataObject },
					pairedItem: { item: 0 },
				});
			} catch (error) {
				out.push({
					json: { tool: call.tool, error: (error as Error).message },
					pairedItem: { item: 0 },
				});
			}
		}
		return [out];
	}
}
