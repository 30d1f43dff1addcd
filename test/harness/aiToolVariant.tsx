import {
	deepCopy,
	NodeConnectionTypes,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

/**
 * The "<name>Tool" variant n8n builds at start-up for every node with `usableAsTool`, so an AI
 * Agent can use it. n8n does this in its server package (`convertNodeToAiTool`, called by
 * `createAiTools` when it loads node types), which is not published as a library; these are the
 * same steps: name + "Tool", no main input, one `ai_tool` output, display name + " Tool",
 * `usableAsTool` removed, and the "Tool Description" parameters added (automatic from resource and
 * operation, or written by hand). Execution stays the node's own `execute`, which n8n-core runs
 * as a tool (`createNodeAsTool`) when an agent calls it.
 */
export function aiToolVariant(nodeType: INodeType): INodeType {
	const description = deepCopy(nodeType.description) as INodeTypeDescription;
	description.name += 'Tool';
	description.displayName += ' Tool';
	description.inputs = [];
	description.outputs = [NodeConnectionTypes.AiTool];
	delete description.usableAsTool;

	const names = description.properties.map((p) => p.name);
	if (!names.includes('toolDescription')) {
		const toolDescription: INodeProperties = {
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: description.description,
			required: true,
			typeOptions: { rows: 2 },
			description: 'Explain to the LLM what this tool does',
		};
		const hasResourceOrOperation = names.includes('resource') || names.includes('operation');
		if (hasResourceOrOperation) {
			toolDescription.displayOptions = { show: { descriptionType: ['manual'] } };
			description.properties.unshift({
				displayName: 'Tool Description',
				name: 'descriptionType',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Set Automatically', value: 'auto', description: 'Automatically set based on resource and operation' },
					{ name: 'Set Manually', value: 'manual', description: 'Manually set the description' },
				],
				default: 'auto',
			}, toolDescription);
		} else {
			description.properties.unshift(toolDescription);
		}
	}
	return { description, methods: nodeType.methods, execute: nodeType.execute };
}
