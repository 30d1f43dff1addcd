import {
	NodeHelpers,
	nodeNameToToolName,
	type IDataObject,
	type INode,
	type INodePropertyOptions,
	type INodeType,
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
import { ToolCaller } from '../../harness/nodes/ToolCaller';
import { resources } from '../../../nodes/SupportTicket/actions/resources';
import { lossyGateway, type GatewayAnswer } from './lossyGateway';

// The node as an AI agent's tool: one distinct action per operation, and the variant n8n builds from `usableAsTool`
// called through n8n-core's tool wrapper with `$fromAI()` arguments.
const PACKAGE = 'n8n-nodes-support-ticket';
let node: INodeType;
const { sandbox } = useSandbox({ seed: 12 });

beforeAll(async () => {
	const { nodeTypes } = await loadPackageTypes();
	node = nodeTypes.getByNameAndVersion(`${PACKAGE}.supportTicket`) as INodeType;
	await addNodeTypes({
		[`${PACKAGE}.supportTicketTool`]: aiToolVariant(node),
		'harness.toolCaller': new ToolCaller(),
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

describe('what an agent chooses from', () => {
	it('the node is usable as a tool', () => {
		expect(node.description.usableAsTool).toBe(true);
	});

	it('every operation of every resource has its own action and description', () => {
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

	it('the tool description n8n generates ("Set Automatically") differs per operation and names the node', () => {
		const tool = aiToolVariant(node);
		const generated = operations().map(({ resource, option }) => {
			const parameters = { resource, operation: option.value as string, descriptionType: 'auto' };
			return NodeHelpers.getToolDescriptionForNode({ parameters } as unknown as INode, tool);
		});
		expect(new Set(generated).size).toBe(generated.length);
		expect(generated).toContain('Get many tickets in Support Ticket');
		expect(generated).toContain('Create a reply in Support Ticket');
		expect(generated.every((d) => d.endsWith(' in Support Ticket'))).toBe(true);
	});
});

function toolNode(
	name: string,
	parameters: IDataObject,
	y: number,
	extra: Partial<INode> = {},
): INode {
	return {
		id: name,
		name,
		type: `${PACKAGE}.supportTicketTool`,
		typeVersion: 1,
		position: [200, y],
		parameters: parameters as INode['parameters'],
		credentials: CREDENTIALS_REF,
		...extra,
	};
}

/** A stand-in agent that makes `calls` through n8n-core's tool caller; `openTicket` adds settings to the create tool. */
function agentWorkflow(
	calls: Array<{ tool: string; args: IDataObject }>,
	openTicket: Partial<INode> = {},
): WorkflowJson {
	const tools = [
		toolNode(
			'Get Ticket',
			{
				resource: 'ticket',
				operation: 'get',
				ticketId: {
					__rl: true,
					mode: 'id',
					value: "={{ $fromAI('ticketId', 'ID of the ticket, e.g. tkt_12', 'string') }}",
				},
			},
			200,
		),
		toolNode('Open Ticket', OPEN_TICKET_TOOL, 300, openTicket),
	];
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
				id: 'agent',
				name: 'Agent',
				type: 'harness.toolCaller',
				typeVersion: 1,
				position: [200, 0],
				parameters: { calls: JSON.stringify(calls) },
			},
			...tools,
		],
		connections: {
			Start: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
			'Get Ticket': { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
			'Open Ticket': { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
		},
	};
}

describe('the tool variant runs in the engine', () => {
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

		it('each tool call is its own request: two different and a repeated one make three tickets, each with its own key', async () => {
			const subject = `agent ${String(idempotencyKeys)}`;
			const result = await runWorkflow(
				agentWorkflow([open(`${subject} A`), open(`${subject} B`), open(`${subject} A`)]),
				{ supportTicketApi: credentialsFor(service) },
			);
			expect(result.error).toBeUndefined();
			const calls = result
				.output('Agent')
				.slice(1)
				.map((item) => item.json);
			expect(calls.map((call) => call.error)).toEqual([undefined, undefined, undefined]);
			expect(
				service.store
					.listTickets()
					.filter((t) => t.subject.startsWith(subject))
					.map((t) => t.subject)
					.sort(),
			).toEqual([`${subject} A`, `${subject} A`, `${subject} B`]);
			const keys = service.log.filter((e) => e.method === 'POST').map((e) => e.idempotencyKey);
			expect(new Set(keys).size).toBe(3);
		});

		it('Retry On Fail on the tool: a create answered 500 and not listed yet is looked for again on the next try, and made once', async () => {
			const subject = `agent retry ${String(idempotencyKeys)}`;
			const fail500: GatewayAnswer = (answer) => ({
				...answer,
				status: 500,
				headers: { 'content-type': 'application/json' },
				body: '{"error":{"code":"internal_error","message":"Something went wrong."}}',
			});
			// The first create is processed and answered 500; the list lags through the first try's two look-ups.
			const gateway = await lossyGateway(service.baseUrl, ({ method, posts, lists }) =>
				method === 'POST' ? (posts === 1 ? fail500 : 'pass') : lists <= 2 ? 'lagging' : 'pass',
			);
			try {
				const result = await runWorkflow(
					agentWorkflow([open(subject)], { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 }),
					{
						supportTicketApi: credentialsFor(service, gateway.baseUrl),
					},
				);
				expect(result.error).toBeUndefined();
				const made = service.store.listTickets().filter((t) => t.subject === subject);
				expect(made).toHaveLength(1);
				expect(result.output('Agent')[1].json.result).toEqual([made[0]]);
			} finally {
				await gateway.stop();
			}
		});
	});
});
