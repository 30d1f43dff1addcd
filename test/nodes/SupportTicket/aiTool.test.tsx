import {
	NodeHelpers,
	nodeNameToToolName,
	type IDataObject,
	type INode,
	type INodePropertyOptions,
	type INodeType,
} from 'n8n-workflow';

import { CREDENTIALS_REF, credentialsFor, loadPackageTypes, runWorkflow, useSandbox, type WorkflowJson } from '../../harness';
import { aiToolVariant } from '../../harness/aiToolVariant';
import { addNodeTypes } from '../../harness/packageTypes';
import { ToolCaller } from '../../harness/nodes/ToolCaller';

// The node as an AI agent's tool: one distinct action per operation, and the variant n8n builds from `usableAsTool`
// called through n8n-core's tool wrapper with `$fromAI()` arguments.
const PACKAGE = 'n8n-nodes-support-ticket';
let node: INodeType;
const { sandbox } = useSandbox({ seed: 12 });

beforeAll(async () => {
	const { nodeTypes } = await loadPackageTypes();
	node = nodeTypes.getByNameAndVersion(`${PACKAGE}.supportTicket`) as INodeType;
	await addNodeTypes({ [`${PACKAGE}.supportTicketTool`]: aiToolVariant(node), 'harness.toolCaller': new ToolCaller() });
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
		expect(all.map(({ resource, option }) => `${resource}.${option.value}`).sort()).toEqual([
			'customer.create',
			'customer.get',
			'customer.getAll',
			'customer.update',
			'reply.create',
			'reply.getAll',
			'ticket.create',
			'ticket.get',
			'ticket.getAll',
			'ticket.update',
		]);
		const actions = all.map(({ option }) => option.action);
		const descriptions = all.map(({ option }) => option.description);
		expect(actions.every((a) => typeof a === 'string' && a.length > 5)).toBe(true);
		expect(descriptions.every((d) => typeof d === 'string' && d.length > 10)).toBe(true);
		expect(new Set(actions).size).toBe(all.length);
		expect(new Set(descriptions).size).toBe(all.length);
	});

	it("the tool description n8n generates (\"Set Automatically\") differs per operation and names the node", () => {
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

describe('the tool variant runs in the engine', () => {
	function toolNode(name: string, parameters: IDataObject, y: number): INode {
		return {
			id: name,
			name,
			type: `${PACKAGE}.supportTicketTool`,
			typeVersion: 1,
			position: [200, y],
			parameters: parameters as INode['parameters'],
			credentials: CREDENTIALS_REF,
		};
	}

	function agentWorkflow(calls: Array<{ tool: string; args: IDataObject }>): WorkflowJson {
		const tools = [
			toolNode('Get Ticket', {
				resource: 'ticket',
				operation: 'get',
				ticketId: { __rl: true, mode: 'id', value: "={{ $fromAI('ticketId', 'ID of the ticket, e.g. tkt_12', 'string') }}" },
			}, 200),
			toolNode('Open Ticket', {
				resource: 'ticket',
				operation: 'create',
				subject: "={{ $fromAI('subject', 'Short title', 'string') }}",
				description: "={{ $fromAI('description', 'What the customer wrote', 'string') }}",
				customerEmail: "={{ $fromAI('email', 'Customer e-mail address', 'string') }}",
			}, 300),
		];
		return {
			nodes: [
				{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{ id: 'agent', name: 'Agent', type: 'harness.toolCaller', typeVersion: 1, position: [200, 0], parameters: { calls: JSON.stringify(calls) } },
				...tools,
			],
			connections: {
				Start: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
				'Get Ticket': { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
				'Open Ticket': { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
			},
		};
	}

	it('an agent sees both tools with their generated descriptions, opens a ticket and reads one; errors come back as text', async () => {
		const existing = sandbox.store.listTickets()[4];
		const result = await runWorkflow(
			agentWorkflow([
				{ tool: nodeNameToToolName('Open Ticket'), args: { subject: 'Printer on fire', description: 'Smoke', email: 'ai@example.com' } },
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
		expect(created).toMatchObject({ subject: 'Printer on fire', description: 'Smoke', customer: { email: 'ai@example.com' } });
		expect(sandbox.store.getTicket(created.id as string)).toMatchObject({ subject: 'Printer on fire' });

		expect(read.result).toEqual([existing]);

		expect(missing.error).toContain('The ticket with ID "tkt_404" was not found');
		expect(missing.error).toContain('Check the ID, or pick the ticket from the list');
	});
});
