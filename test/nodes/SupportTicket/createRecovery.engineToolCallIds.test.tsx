import {
	NodeConnectionTypes,
	type EngineRequest,
	type EngineResponse,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import {
	CREDENTIALS_REF,
	credentialsFor,
	loadPackageTypes,
	runWorkflow,
	useSandbox,
	type WorkflowJson,
} from '../../harness';
import { aiToolVariant, OPEN_TICKET_TOOL } from '../../harness/aiToolVariant';
import { addNodeTypes } from '../../harness/packageTypes';

// Review: on 2.x's engine-request path (ToolsAgent V3) the engine runs the tool node per action with
// `{ ...agent item, ...args, toolCallId: action.id }`; the node's key is then the tool call id alone (no run index, no
// item, no input). A tool call id is unique within one model conversation only: Kimi K2 (Moonshot API, OpenRouter, vLLM's
// `kimi_k2` id type) numbers them `functions.<tool>:<n>` from 0 in every conversation. An agent with two input items
// holds two conversations in one execution, whose first calls carry the same id.

/** ToolsAgent V3's request/response shape without a model: one action per item, the ids the model gave. */
class EngineAgent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Engine Agent (review)',
		name: 'engineAgent',
		group: ['transform'],
		version: 1,
		description: 'Asks the engine to run a tool per item, as ToolsAgent V3',
		defaults: { name: 'Agent' },
		inputs: [
			NodeConnectionTypes.Main,
			{ type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true },
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(
		this: IExecuteFunctions,
		response?: EngineResponse,
	): Promise<INodeExecutionData[][] | EngineRequest> {
		const items = this.getInputData();
		if (!response?.actionResponses?.length) {
			return {
				actions: items.map((item, itemIndex) => ({
					actionType: 'ExecutionNodeAction' as const,
					nodeName: 'Open Ticket',
					input: item.json.args as IDataObject,
					type: NodeConnectionTypes.AiTool,
					id: String(item.json.callId),
					metadata: { itemIndex },
				})),
				metadata: {},
			};
		}
		return [
			response.actionResponses.map((answer, item) => ({
				json: (answer.data.data?.ai_tool?.[0]?.[0]?.json ?? {
					error: answer.data.error?.message,
				}) as IDataObject,
				pairedItem: { item },
			})),
		];
	}
}

const PACKAGE = 'n8n-nodes-support-ticket';

beforeAll(async () => {
	const { nodeTypes } = await loadPackageTypes();
	const node = nodeTypes.getByNameAndVersion(`${PACKAGE}.supportTicket`) as INodeType;
	await addNodeTypes({
		[`${PACKAGE}.supportTicketTool`]: aiToolVariant(node),
		'harness.engineAgent': new EngineAgent(),
	});
});

function workflow(items: IDataObject[]): WorkflowJson {
	const openTicket: INode = {
		id: 'open',
		name: 'Open Ticket',
		type: `${PACKAGE}.supportTicketTool`,
		typeVersion: 1,
		position: [200, 300],
		parameters: OPEN_TICKET_TOOL,
		credentials: CREDENTIALS_REF,
	};
	return {
		nodes: [
			{
				id: 'start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'items',
				name: 'Items',
				type: 'harness.items',
				typeVersion: 1,
				position: [100, 0],
				parameters: { json: JSON.stringify(items) },
			},
			{
				id: 'agent',
				name: 'Agent',
				type: 'harness.engineAgent',
				typeVersion: 1,
				position: [200, 0],
				parameters: {},
			},
			openTicket,
		],
		connections: {
			Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
			'Open Ticket': { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

describe.each([
	['honours Idempotency-Key', true],
	['ignores Idempotency-Key', false],
])(
	'engine path, two agent items (two conversations) whose first tool calls are both "functions.Open_Ticket:0", against a service that %s',
	(_, idempotencyKeys) => {
		const { sandbox } = useSandbox({ seed: 34, idempotencyKeys });

		it('two calls with other data are two requests: two tickets, each item its own', async () => {
			const tag = `kimi ${String(idempotencyKeys)}`;
			const call = (subject: string) => ({
				callId: 'functions.Open_Ticket:0',
				args: { subject, description: 'Smoke', email: 'kimi@example.com' },
			});
			const result = await runWorkflow(workflow([call(`${tag} A`), call(`${tag} B`)]), {
				supportTicketApi: credentialsFor(sandbox),
			});
			expect(result.error).toBeUndefined();
			const outputs = result.output('Agent').map((o) => o.json);
			const subjects = outputs.map((o) => o.subject ?? o.error);
			expect(subjects).toEqual([`${tag} A`, `${tag} B`]);
			expect(
				sandbox.store
					.listTickets()
					.filter((t) => t.subject.startsWith(tag))
					.map((t) => t.subject)
					.sort(),
			).toEqual([`${tag} A`, `${tag} B`]);
		});
	},
);
