import type { IDataObject, INode } from 'n8n-workflow';

import {
	chainWorkflow,
	itemsWorkflow,
	runWorkflow,
	useSandbox,
	workflowNode,
	type WorkflowJson,
} from '../../harness';
import { byId, NODE, runNode } from '../supportTicketNode';
import { useWarningsWithoutWaits } from './warningsWithoutWaits';
import { BAD_GATEWAY, type GatewayAnswer, type HeldAnswer, useGateway } from './lossyGateway';

// Which record a lost create made: found by what services do not rewrite, for the whole execution, or told truthfully.

const warnings = useWarningsWithoutWaits();

const ticket = (subject: string, extra: IDataObject = {}): IDataObject => ({
	resource: 'ticket',
	operation: 'create',
	subject,
	description: 'Printer on fire',
	customerEmail: `${subject.replace(/\W+/g, '-').toLowerCase()}@example.com`,
	additionalFields: { priority: 'high', customFieldsJson: '{"tags":["printer"]}' },
	...extra,
});

/** The service processes the create, then `change` runs on the record (an automation), then the client gets a 502. */
const lostAfter =
	(change: (id: string) => void): GatewayAnswer =>
	(answer: HeldAnswer) => {
		change(String((JSON.parse(answer.body) as { data: IDataObject }).data.id));
		return BAD_GATEWAY;
	};

describe('create recovery', () => {
	const { sandbox } = useSandbox({ seed: 3 });
	const gateway = useGateway(sandbox);
	const ticketsWith = (subject: string) =>
		sandbox.store.listTickets().filter((t) => t.subject === subject);
	const posts = () => sandbox.countCalls({ method: 'POST' });

	it('1. a helpdesk rule changes priority and tags at once, the answer is lost: the ticket is found, not made twice', async () => {
		const subject = 'rule edits it';
		const rule = (id: string) =>
			void sandbox.store.updateTicket(id, { priority: 'low', tags: ['vip'] });
		const credentials = await gateway(({ method, posts: n }) =>
			method === 'POST' && n === 1 ? lostAfter(rule) : 'pass',
		);
		const result = await runNode(ticket(subject), credentials);
		expect(result.error).toBeUndefined();
		const made = ticketsWith(subject);
		expect(made).toHaveLength(1);
		expect(result.output('Node').map((o) => o.json.id)).toEqual([made[0].id]);
		expect(posts()).toBe(1);
		expect(warnings).toEqual([
			expect.stringMatching(`but had been processed: found ticket ${made[0].id} and returned it`),
		]);
	});

	it('2. every attempt processed and its answer lost while the list lags: the error says the ticket may exist up to 8 times', async () => {
		const subject = 'all answers lost';
		const credentials = await gateway(({ method }) => (method === 'POST' ? 'lost' : 'lagging'));
		const result = await runNode(ticket(subject), credentials);
		expect(ticketsWith(subject)).toHaveLength(8);
		expect(result.error?.message).toBe(
			'The ticket may have been created up to 8 times: the answer to each attempt was lost (last: The service had an error (HTTP 502))',
		);
		expect(result.error?.description).toBe(
			'It was not found among the newest ticket records: check for it before running this item again.',
		);
	});

	const start = () =>
		workflowNode('Start', 'n8n-nodes-base.manualTrigger', {}, { credentials: undefined });
	/** Two nodes in a chain, or one node run twice (two branches into it): the output of each run. */
	const twice: Record<string, (subject: string) => WorkflowJson> = {
		'in two nodes': (subject) =>
			chainWorkflow(
				start(),
				workflowNode('First', NODE, ticket(subject), { position: [220, 0] }),
				workflowNode('Second', NODE, ticket(subject), { position: [440, 0] }),
			),
		'in one node run twice (two branches into it)': (subject) => {
			const branches = ['A', 'B'].map((name) =>
				workflowNode(name, 'harness.items', { json: '[{}]' }, { credentials: undefined }),
			);
			const into = { main: [[{ node: 'Create', type: 'main' as const, index: 0 }]] };
			const connections = {
				Start: { main: [branches.map((b) => ({ node: b.name, type: 'main' as const, index: 0 }))] },
				...Object.fromEntries(branches.map((b) => [b.name, into])),
			};
			const nodes = [start(), ...branches, workflowNode('Create', NODE, ticket(subject))];
			return { nodes, connections, settings: { executionOrder: 'v1' } };
		},
	};

	it.each(Object.keys(twice))(
		'3. the same create %s of one execution, the second refused by a bare 503: two tickets, one each',
		async (shape) => {
			const subject = `twice ${shape}`;
			const credentials = await gateway(({ method, posts: n }) =>
				method === 'POST' && n === 2 ? 'refused' : 'pass',
			);
			const result = await runWorkflow(twice[shape](subject), { supportTicketApi: credentials });
			expect(result.error).toBeUndefined();
			const runs = Object.values(result.run?.data.resultData.runData ?? {})
				.flat()
				.map((run) => run.data?.main[0]?.[0]?.json)
				.filter((json) => json?.subject === subject);
			const made = ticketsWith(subject);
			expect(made).toHaveLength(2);
			expect(runs.map((json) => json?.id).sort()).toEqual(made.map((t) => t.id).sort());
		},
	);

	it('4. a customer whose name an automation fills in, answer lost, list lagging: the duplicate-e-mail refusal leads to it', async () => {
		const email = 'filled.in@example.com';
		const automation = (id: string) => void sandbox.store.updateCustomer(id, { name: 'Lou Smith' });
		const credentials = await gateway(({ method, posts: n, lists }) => {
			if (method === 'POST') return n === 1 ? lostAfter(automation) : 'pass';
			return lists <= 2 ? 'lagging' : 'pass';
		});
		const result = await runNode(
			{ resource: 'customer', operation: 'create', email, additionalFields: { name: 'Lou' } },
			credentials,
		);
		expect(result.error).toBeUndefined();
		const customer = sandbox.store.findCustomerByEmail(email);
		expect(result.output('Node').map((o) => o.json)).toEqual([customer]);
		expect(customer?.name).toBe('Lou Smith');
	});

	it('1b. another ticket of the same customer made in the same seconds while this create was refused: not taken; this one is sent again', async () => {
		const subject = 'mine, not theirs';
		const email = 'one.customer@example.com';
		const credentials = await gateway(({ method, posts: n }) => {
			if (method !== 'POST' || n !== 1) return 'pass';
			// Another execution's create for the same customer lands while this one is refused by a gateway.
			sandbox.store.createTicket({
				subject: 'someone else',
				description: 'Another problem',
				customer: { email },
			});
			return 'refused';
		});
		const result = await runNode(ticket(subject, { customerEmail: email }), credentials);
		expect(result.error).toBeUndefined();
		const mine = ticketsWith(subject);
		expect(mine).toHaveLength(1);
		expect(result.output('Node').map((o) => o.json.id)).toEqual([mine[0].id]);
		expect(warnings).toEqual([
			expect.stringMatching(
				/create of a ticket \(item 0\) failed .* and was not found among the newest ticket records: sending it again/,
			),
			expect.stringMatching(/was sent again \(attempt 2\) and created ticket/),
		]);
	});

	it.each([
		[
			'5a. a list that leaves out the description',
			(answer: HeldAnswer): HeldAnswer => {
				const list = JSON.parse(answer.body) as { data: IDataObject[] };
				for (const record of list.data) delete record.description;
				return { ...answer, body: JSON.stringify(list) };
			},
		],
		[
			'5b. a Date header 5 s ahead of the clock that stamps created_at',
			(answer: HeldAnswer): HeldAnswer => ({
				...answer,
				headers: { ...answer.headers, date: new Date(Date.now() + 5_000).toUTCString() },
			}),
		],
	])('%s: the ticket is found, not made twice', async (subject, listAnswer) => {
		const credentials = await gateway(({ method, posts: n }) =>
			method === 'POST' ? (n === 1 ? 'lost' : 'pass') : listAnswer,
		);
		const result = await runNode(ticket(subject), credentials);
		expect(result.error).toBeUndefined();
		expect(ticketsWith(subject)).toHaveLength(1);
		expect(posts()).toBe(1);
	});
});

describe('6. Idempotency-Key, against a service that honours it', () => {
	const { sandbox } = useSandbox({ seed: 3, idempotencyKeys: true });
	const gateway = useGateway(sandbox);

	it('each item sends its own key, the same on every attempt: the repeat of a lost create returns the first ticket', async () => {
		const subject = 'honoured key';
		// The first create is processed and its answer lost; the list lags, so the node sends it again.
		const credentials = await gateway(({ method, posts: n, lists }) =>
			method === 'POST' ? (n === 1 ? 'lost' : 'pass') : lists <= 2 ? 'lagging' : 'pass',
		);
		const result = await runWorkflow(
			itemsWorkflow(
				[{ n: 1 }, { n: 2 }],
				NODE,
				ticket(subject, { subject: `={{ "${subject} " + $json.n }}` }),
			),
			{
				supportTicketApi: credentials,
			},
		);
		expect(result.error).toBeUndefined();
		// Three POSTs: the lost one and its repeat share a key, the other item has its own.
		const keys = sandbox.log.filter((e) => e.method === 'POST').map((e) => e.idempotencyKey);
		expect(keys).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
		expect(new Set(keys).size).toBe(2);
		const made = sandbox.store.listTickets().filter((t) => t.subject.startsWith(subject));
		expect(made).toHaveLength(2);
		expect(
			result
				.output('Node')
				.map((o) => o.json.id)
				.sort(),
		).toEqual(made.map((t) => t.id).sort());
	});

	it('Retry On Fail runs the node again: the item made before the failure is not sent again, the refused one is sent with its key', async () => {
		const subject = 'retried node';
		// The second item's first create is refused as invalid: the node fails and n8n runs it again.
		const credentials = await gateway(({ method, posts: n }) =>
			method === 'POST' && n === 2 ? (answer) => ({ ...answer, status: 422 }) : 'pass',
		);
		const workflow = itemsWorkflow(
			[{ n: 1 }, { n: 2 }],
			NODE,
			ticket(subject, {
				subject: `={{ "${subject} " + $json.n }}`,
				options: { concurrentRequests: 1 },
			}),
			{
				retryOnFail: true,
				maxTries: 2,
				waitBetweenTries: 1,
			},
		);
		const result = await runWorkflow(workflow, { supportTicketApi: credentials });
		expect(result.error).toBeUndefined();
		const keys = sandbox.log.filter((e) => e.method === 'POST').map((e) => e.idempotencyKey);
		expect(keys).toHaveLength(3);
		expect(keys[2]).toBe(keys[1]);
		expect(sandbox.store.listTickets().filter((t) => t.subject === `${subject} 1`)).toHaveLength(1);
	});
});

describe('a list in another order than newest first', () => {
	const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
	const { sandbox } = useSandbox({ seed: 3, now: () => clock.ms, maxSkewSeconds: 10 ** 9 });
	const gateway = useGateway(sandbox);

	it('a reply whose answer is lost, on a ticket with 150 older replies listed oldest first: found on the last page, not sent twice', async () => {
		const ticketId = sandbox.store.listTickets()[0].id;
		for (let n = 0; n < 150; n++) {
			clock.ms += 1000;
			sandbox.store.createReply(ticketId, { body: `Earlier reply ${n}` });
		}
		clock.ms += 10 * 60_000;
		sandbox.store.listQuirks.repliesOldestFirst = true;
		const credentials = await gateway(({ method, posts: n }) =>
			method === 'POST' && n === 1 ? 'lost' : 'pass',
		);
		const result = await runNode(
			{ resource: 'reply', operation: 'create', ticketId: byId(ticketId), body: 'On its way' },
			credentials,
		);
		expect(result.error).toBeUndefined();
		const mine = sandbox.store.listReplies(ticketId).filter((r) => r.body === 'On its way');
		expect(mine).toHaveLength(1);
		expect(result.output('Node').map((o) => o.json.id)).toEqual([mine[0].id]);
	});
});

// n8n hands the same item objects to every node connected to one output: a create left open in one node must not
// become the next node's.

/** Start → Items → both nodes (one output feeding two nodes, as a user draws it), Continue On Fail on each. */
function fanOut(items: IDataObject[], first: INode, second: INode): WorkflowJson {
	const { nodes, connections } = chainWorkflow(
		workflowNode('Start', 'n8n-nodes-base.manualTrigger', {}, { credentials: undefined }),
		workflowNode(
			'Items',
			'harness.items',
			{ json: JSON.stringify(items) },
			{ credentials: undefined },
		),
		first,
	);
	connections.Items.main[0]?.push({ node: second.name, type: 'main', index: 0 });
	return { nodes: [...nodes, second], connections, settings: { executionOrder: 'v1' } };
}

describe.each([
	['honours Idempotency-Key', true],
	['ignores Idempotency-Key', false],
])('one output feeding two ticket creates, against a service that %s', (_, idempotencyKeys) => {
	const { sandbox } = useSandbox({ seed: 31, idempotencyKeys });
	const gateway = useGateway(sandbox);

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
});
