import type { IDataObject, INode } from 'n8n-workflow';

import { runWorkflow, useSandbox, workflowNode, type WorkflowJson } from '../../harness';
import { NODE } from '../supportTicketNode';
import { useWarningsWithoutWaits } from './warningsWithoutWaits';
import { useGateway } from './lossyGateway';

// Review: n8n hands the same item objects to every node connected to one output. A create left open in one node is
// remembered by its input object (leftOpen), so the next node that gets that object takes over its key and its body.

useWarningsWithoutWaits();

/** Start → Items → both nodes (one output feeding two nodes, as a user draws it), Continue On Fail on each. */
function fanOut(items: IDataObject[], first: INode, second: INode): WorkflowJson {
	const start = workflowNode(
		'Start',
		'n8n-nodes-base.manualTrigger',
		{},
		{ id: 'trigger', credentials: undefined },
	);
	const source = workflowNode(
		'Items',
		'harness.items',
		{ json: JSON.stringify(items) },
		{ id: 'items', position: [110, 0], credentials: undefined },
	);
	return {
		nodes: [start, source, first, second],
		connections: {
			Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: {
				main: [
					[
						{ node: first.name, type: 'main', index: 0 },
						{ node: second.name, type: 'main', index: 0 },
					],
				],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}

describe.each([
	['honours Idempotency-Key', true],
	['ignores Idempotency-Key', false],
])(
	'one output feeding a customer create and a ticket create, against a service that %s',
	(_, idempotencyKeys) => {
		const { sandbox } = useSandbox({ seed: 31, idempotencyKeys });
		const gateway = useGateway(sandbox);

		it("the customer create of item 0 answered 500 (not processed): the ticket of item 0 is still created from the ticket node's own data", async () => {
			const tag = `fanout ${String(idempotencyKeys)}`;
			let customerPosts = 0;
			const credentials = await gateway(({ method, target }) =>
				method === 'POST' && target.endsWith('/customers') && ++customerPosts === 1
					? 'failed'
					: 'pass',
			);
			const customer = workflowNode(
				'Create Customer',
				NODE,
				{ resource: 'customer', operation: 'create', email: '={{ $json.email }}' },
				{ id: 'customer', position: [220, 0], onError: 'continueRegularOutput' },
			);
			const ticket = workflowNode(
				'Open Ticket',
				NODE,
				{
					resource: 'ticket',
					operation: 'create',
					subject: `={{ "${tag} " + $json.n }}`,
					description: 'Welcome aboard',
					customerEmail: '={{ $json.email }}',
				},
				{ id: 'ticket', position: [220, 200], onError: 'continueRegularOutput' },
			);
			const items = [1, 2].map((n) => ({
				n,
				email: `fanout-${String(idempotencyKeys)}-${n}@example.com`,
			}));
			const result = await runWorkflow(fanOut(items, customer, ticket), {
				supportTicketApi: credentials,
			});
			expect(result.error).toBeUndefined();

			// The customer node: item 0 may have been created (500), item 1 created.
			const customers = result.output('Create Customer').map((o) => o.json);
			expect(String(customers[0].error)).toMatch(/may have been created/);
			expect(customers[1].email).toBe(items[1].email);

			// The ticket node is another request: both of its items make their own ticket.
			const tickets = result.output('Open Ticket').map((o) => o.json);
			expect(tickets.map((t) => t.error)).toEqual([undefined, undefined]);
			expect(tickets.map((t) => t.subject)).toEqual([`${tag} 1`, `${tag} 2`]);
			expect(
				sandbox.store
					.listTickets()
					.filter((t) => t.subject.startsWith(tag))
					.map((t) => t.subject)
					.sort(),
			).toEqual([`${tag} 1`, `${tag} 2`]);
			// No request of the ticket node went out with the customer node's key.
			const keysOf = (suffix: string) =>
				sandbox.log
					.filter((e) => e.method === 'POST' && e.pathname.endsWith(suffix))
					.map((e) => e.idempotencyKey);
			expect(keysOf('/tickets').filter((key) => keysOf('/customers').includes(key))).toEqual([]);
		});

		it('two ticket nodes on one output (e.g. one per queue): the first one’s open create does not become the second one’s ticket', async () => {
			const tag = `twoqueues ${String(idempotencyKeys)}`;
			let posts = 0;
			const credentials = await gateway(({ method }) =>
				method === 'POST' && ++posts === 1 ? 'failed' : 'pass',
			);
			const node = (name: string, queue: string, y: number) =>
				workflowNode(
					name,
					NODE,
					{
						resource: 'ticket',
						operation: 'create',
						subject: `={{ "${tag} ${queue} " + $json.n }}`,
						description: `For the ${queue} queue`,
						customerEmail: 'queues@example.com',
					},
					{ id: name, position: [220, y], onError: 'continueRegularOutput' },
				);
			const result = await runWorkflow(
				fanOut([{ n: 1 }], node('Billing', 'billing', 0), node('Support', 'support', 200)),
				{ supportTicketApi: credentials },
			);
			expect(result.error).toBeUndefined();
			expect(String(result.output('Billing')[0].json.error)).toMatch(/may have been created/);
			const support = result.output('Support')[0].json;
			expect(support.subject).toBe(`${tag} support 1`);
			const made = sandbox.store
				.listTickets()
				.filter((t) => t.subject.startsWith(tag))
				.map((t) => t.subject);
			expect(made).toEqual([`${tag} support 1`]);
		});
	},
);
