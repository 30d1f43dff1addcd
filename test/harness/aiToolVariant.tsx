import {
	deepCopy,
	NodeConnectionTypes,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

// The "<name>Tool" variant n8n's server builds for `usableAsTool` (`convertNodeToAiTool`, not published as a library),
// by the same steps; n8n-core runs the node's own `execute` as the tool.
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
			description.properties.unshift(
				{
					displayName: 'Tool Description',
					name: 'descriptionType',
					type: 'options',
					noDataExpression: true,
					options: [
						{
							name: 'Set Automatically',
							value: 'auto',
							description: 'Automatically set based on resource and operation',
						},
						{ name: 'Set Manually', value: 'manual', description: 'Manually set the description' },
					],
					default: 'auto',
				},
				toolDescription,
			);
		} else {
			description.properties.unshift(toolDescription);
		}
	}
	return { description, methods: nodeType.methods, execute: nodeType.execute };
}

/** The Create ticket tool an agent fills in: subject, description and e-mail from `$fromAI()`. */
export const OPEN_TICKET_TOOL = {
	resource: 'ticket',
	operation: 'create',
	subject: "={{ $fromAI('subject', 'Short title', 'string') }}",
	description: "={{ $fromAI('description', 'What the customer wrote', 'string') }}",
	customerEmail: "={{ $fromAI('email', 'Customer e-mail address', 'string') }}",
};
