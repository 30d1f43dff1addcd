import {
	NodeConnectionTypes,
	nodeNameToToolName,
	type EngineRequest,
	type EngineResponse,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import {
	chainWorkflow,
	credentialsFor,
	itemsWorkflow,
	loadPackageTypes,
	runWorkflow,
	useSandbox,
	workflowNode,
	type WorkflowJson,
} from '../../harness';
import { aiToolVariant, OPEN_TICKET_TOOL } from '../../harness/aiToolVariant';
import { addNodeTypes } from '../../harness/packageTypes';
import { ToolCaller } from '../../harness/nodes/ToolCaller';
import { resources } from '../../../nodes/SupportTicket/actions/resources';
import { byId } from '../supportTicketNode';
import { processedThen500, useGateway } from './lossyGateway';

// The node as an AI agent's tool: one distinct action per operation, and the variant n8n builds from `usableAsTool`
// called through n8n-core's tool wrapper with `$fromAI()` arguments.
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
let node: INodeType;
const { sandbox } = useSandbox({ seed: 12 });

beforeAll(async () => {
	const { nodeTypes } = await loadPackageTypes();
	node = nodeTypes.getByNameAndVersion(`${PACKAGE}.supportTicket`) as INodeType;
	await addNodeTypes({
		[`${PACKAGE}.supportTicketTool`]: aiToolVariant(node),
		'harness.toolCaller': new ToolCaller(),
		'harness.engineAgent': new EngineAgent(),
	});
});

function operations(): Array<{ resource: string; option: INodePropertyOptions }> {
	return node.description.properties
		.filter((p) => p.name === 'operation')
		.flatMap((p) =>
			(p.displayOptions?.show?.resource as string[]).flatMap((resource) =>
				(p.options as INodePropertyOptions[]).map((option) => ({ resource, option })),
			),
		);
}

it('the node is usable as a tool; every operation of every resource has its own action and description', () => {
	expect(node.description.usableAsTool).toBe(true);
	const all = operations();
	// Every operation the router runs is offered, each once.
	const routed = Object.entries(resources).flatMap(([resource, { operations }]) =>
		Object.keys(operations).map((operation) => `${resource}.${operation}`),
	);
	expect(all.map(({ resource, option }) => `${resource}.${option.value}`).sort()).toEqual(
		routed.sort(),
	);
	const actions = all.map(({ option }) => option.action);
	const descriptions = all.map(({ option }) => option.description);
	expect(actions.every((a) => typeof a === 'string' && a.length > 5)).toBe(true);
	expect(descriptions.every((d) => typeof d === 'string' && d.length > 10)).toBe(true);
	expect(new Set(actions).size).toBe(all.length);
	expect(new Set(descriptions).size).toBe(all.length);
});

const TOOL = `${PACKAGE}.supportTicketTool`;
const toAgent = { ai_tool: [[{ node: 'Agent', type: 'ai_tool' as const, index: 0 }]] };
const noCredentials = { credentials: undefined };

/** A stand-in agent that makes `calls` through n8n-core's tool caller; `openTicket` adds settings to the create tool. */
function agentWorkflow(
	calls: Array<{ tool: string; args: IDataObject }>,
	openTicket: Partial<INode> = {},
): WorkflowJson {
	const { nodes, connections } = chainWorkflow(
		workflowNode('Start', 'n8n-nodes-base.manualTrigger', {}, noCredentials),
		workflowNode('Agent', 'harness.toolCaller', { calls: JSON.stringify(calls) }, noCredentials),
	);
	const ticketId = "={{ $fromAI('ticketId', 'ID of the ticket, e.g. tkt_12', 'string') }}";
	const getTicket = { resource: 'ticket', operation: 'get', ticketId: byId(ticketId) };
	const tools = [
		workflowNode('Get Ticket', TOOL, getTicket),
		workflowNode('Open Ticket', TOOL, OPEN_TICKET_TOOL, openTicket),
	];
	return {
		nodes: [...nodes, ...tools],
		connections: { ...connections, 'Get Ticket': toAgent, 'Open Ticket': toAgent },
	};
}

it('an agent sees both tools with their generated descriptions, opens a ticket and reads one; errors come back as text', async () => {
	const existing = sandbox.store.listTickets()[4];
	const result = await runWorkflow(
		agentWorkflow([
			{
				tool: nodeNameToToolName('Open Ticket'),
				args: { subject: 'Printer on fire', description: 'Smoke', email: 'ai@example.com' },
			},
			{ tool: nodeNameToToolName('Get Ticket'), args: { ticketId: existing.id } },
			{ tool: nodeNameToToolName('Get Ticket'), args: { ticketId: 'tkt_404' } },
		]),
		{ supportTicketApi: credentialsFor(sandbox) },
	);
	expect(result.error).toBeUndefined();
	const [listing, opened, read, missing] = result.output('Agent').map((item) => item.json);

	expect(listing.tools).toEqual(
		expect.arrayContaining([
			{ name: 'Open_Ticket', description: 'Create a ticket in Support Ticket' },
			{ name: 'Get_Ticket', description: 'Get a ticket in Support Ticket' },
		]),
	);

	const [created] = (opened.result as IDataObject[]) ?? [];
	expect(created).toMatchObject({
		subject: 'Printer on fire',
		description: 'Smoke',
		customer: { email: 'ai@example.com' },
	});
	expect(sandbox.store.getTicket(created.id as string)).toMatchObject({
		subject: 'Printer on fire',
	});

	expect(read.result).toEqual([existing]);

	expect(missing.error).toContain('The ticket with ID "tkt_404" was not found');
	expect(missing.error).toContain('Check the ID, or pick the ticket from the list');
});

describe('exactly once, as a tool', () => {
	const open = (subject: string) => ({
		tool: nodeNameToToolName('Open Ticket'),
		args: { subject, description: 'Smoke', email: 'agent@example.com' },
	});

	describe.each([
		['honours Idempotency-Key', true],
		['ignores Idempotency-Key', false],
	])('against a service that %s', (_, idempotencyKeys) => {
		const { sandbox: service } = useSandbox({ seed: 13, idempotencyKeys });
		const gateway = useGateway(service);
		/** The subjects of the tickets the service holds that start with `tag`, sorted. */
		const subjectsFrom = (tag: string) =>
			service.store
				.listTickets()
				.map((t) => t.subject)
				.filter((subject) => subject.startsWith(tag))
				.sort();

		it('each tool call is its own request: two different and a repeated one make three tickets, each with its own key', async () => {
			const subject = `agent ${String(idempotencyKeys)}`;
			const result = await runWorkflow(
				agentWorkflow([open(`${subject} A`), open(`${subject} B`), open(`${subject} A`)]),
				{ supportTicketApi: credentialsFor(service) },
			);
			expect(result.error).toBeUndefined();
			const errors = result.output('Agent').map((item) => item.json.error);
			expect(errors.slice(1)).toEqual([undefined, undefined, undefined]);
			expect(subjectsFrom(subject)).toEqual([`${subject} A`, `${subject} A`, `${subject} B`]);
			const keys = service.log.filter((e) => e.method === 'POST').map((e) => e.idempotencyKey);
			expect(new Set(keys).size).toBe(3);
		});

		it('Retry On Fail on the tool: a create answered 500 and not listed yet is looked for again on the next try, and made once', async () => {
			const subject = `agent retry ${String(idempotencyKeys)}`;
			// The first create is processed and answered 500; the list lags through the first try's two look-ups.
			const credentials = await gateway(({ method, posts, lists }) =>
				method === 'POST'
					? posts === 1
						? processedThen500
						: 'pass'
					: lists <= 2
						? 'lagging'
						: 'pass',
			);
			const result = await runWorkflow(
				agentWorkflow([open(subject)], { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 }),
				{ supportTicketApi: credentials },
			);
			expect(result.error).toBeUndefined();
			const made = service.store.listTickets().filter((t) => t.subject === subject);
			expect(made).toHaveLength(1);
			expect(result.output('Agent')[1].json.result).toEqual([made[0]]);
		});

		// On 2.x's engine-request path (ToolsAgent V3) the tool's key would be the tool call id alone; Kimi K2 numbers
		// them `functions.<tool>:<n>` from 0 in every conversation, and an agent with two items holds two conversations.
		it('engine path, two agent items whose first tool calls are both "functions.Open_Ticket:0": two tickets, each item its own', async () => {
			const tag = `kimi ${String(idempotencyKeys)}`;
			const call = (subject: string) => ({
				callId: 'functions.Open_Ticket:0',
				args: { subject, description: 'Smoke', email: 'kimi@example.com' },
			});
			const { nodes, connections } = itemsWorkflow(
				[call(`${tag} A`), call(`${tag} B`)],
				'harness.engineAgent',
				{},
				{ name: 'Agent', credentials: undefined },
			);
			const workflow = {
				nodes: [...nodes, workflowNode('Open Ticket', TOOL, OPEN_TICKET_TOOL)],
				connections: { ...connections, 'Open Ticket': toAgent },
				settings: { executionOrder: 'v1' as const },
			};
			const result = await runWorkflow(workflow, { supportTicketApi: credentialsFor(service) });
			expect(result.error).toBeUndefined();
			const outputs = result.output('Agent').map((o) => o.json);
			expect(outputs.map((o) => o.subject ?? o.error)).toEqual([`${tag} A`, `${tag} B`]);
			expect(subjectsFrom(tag)).toEqual([`${tag} A`, `${tag} B`]);
		});
	});
});
