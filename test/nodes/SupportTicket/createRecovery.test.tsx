import { Container } from '@n8n/di';
import { InstanceSettings } from 'n8n-core';
import type { IDataObject } from 'n8n-workflow';

import {
	chainWorkflow,
	credentialsFor,
	itemsWorkflow,
	runWorkflow,
	useSandbox,
	workflowNode,
	type WorkflowJson,
	type WorkflowRun,
} from '../../harness';
import type { Sandbox } from '../../../sandbox';
import type { InjectedFault } from '../../../sandbox/faults';
import { load } from '../../examples/postgresExamples';
import { byId, NODE, runNode } from '../supportTicketNode';
import { useWarningsWithoutWaits } from './warningsWithoutWaits';
import * as lossy from './lossyGateway';

// A create whose answer is lost after the service may have processed it: the node returns the record it finds (by
// what services do not rewrite, for the whole execution), sends it again, or says the record may exist. Exactly once
// in every shape n8n calls a create in: Retry On Fail, two nodes or instances, two executions at once.

const warnings = useWarningsWithoutWaits();

const slug = (subject: string) => subject.replace(/\W+/g, '-');
const ticket = (subject: string, extra: IDataObject = {}): IDataObject => ({
	resource: 'ticket',
	operation: 'create',
	subject,
	description: 'Printer on fire',
	customerEmail: `${slug(subject)}@Example.com`,
	additionalFields: {
		customerName: 'Rita',
		priority: 'high',
		customFieldsJson: '{"tags":["a","b"],"external_ref":"X-1"}',
	},
	...extra,
});
const customer = (email: string, name?: string): IDataObject => ({
	resource: 'customer',
	operation: 'create',
	email,
	additionalFields: name ? { name } : {},
});
/** One ticket per item: the subject numbered by `$json.n`. */
const perItem = (subject: string, extra: IDataObject = {}) =>
	ticket(subject, { subject: `={{ "${subject} " + $json.n }}`, ...extra });
const itemsPriority = { additionalFields: { priority: '={{ $json.priority }}' } };
const retried = { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 };
const start = () =>
	workflowNode('Start', 'n8n-nodes-base.manualTrigger', {}, { credentials: undefined });
const withSubject = (sandbox: Sandbox, subject: string) =>
	sandbox.store.listTickets().filter((t) => t.subject === subject);
const ids = (records: { id?: unknown }[]) => records.map((r) => String(r.id)).sort();
/** Every item any node output, in every run of the workflow. */
const allOutput = (result: WorkflowRun) =>
	Object.values(result.run?.data.resultData.runData ?? {})
		.flat()
		.flatMap((run) => run.data?.main[0] ?? [])
		.map((item) => item.json);
const signal = () => {
	let fire = (): void => undefined;
	const fired = new Promise<void>((resolve) => (fire = resolve));
	return { fire, fired };
};

/** The n-th create gets `posts[n - 1]`, the n-th list `lists[n - 1]`; any other passes. */
const fates =
	(posts: lossy.GatewayAnswer[], lists: lossy.GatewayAnswer[] = []) =>
	({ method, posts: p, lists: l }: lossy.GatewayRequest): lossy.GatewayAnswer =>
		(method === 'POST' ? posts[p - 1] : lists[l - 1]) ?? 'pass';
/** The service processes the create, then `change` runs on the record (an automation), then the client gets a 502. */
const lostAfter =
	(change: (id: string) => void) =>
	(answer: lossy.HeldAnswer): lossy.HeldAnswer => {
		change(String((JSON.parse(answer.body) as { data: IDataObject }).data.id));
		return lossy.BAD_GATEWAY;
	};
type Fate = InjectedFault | ((request: lossy.GatewayRequest) => lossy.GatewayAnswer);

describe('a create whose answer may be lost', () => {
	// The service's clock can be set back, to make records that were created before the request.
	let shiftMs = 0;
	const { sandbox } = useSandbox({ seed: 14, now: () => Date.now() + shiftMs });
	const gateway = lossy.useGateway(sandbox);
	afterEach(() => {
		shiftMs = 0;
		sandbox.store.listQuirks.repliesOldestFirst = false;
	});
	const before = (ms: number, make: () => unknown) => {
		shiftMs = -ms;
		make();
		shiftMs = 0;
	};
	/** Runs the node through the sandbox with `fate` injected, or through a gateway deciding each request's. */
	const run = async (parameters: IDataObject, fate: Fate) => {
		if (typeof fate === 'function') return runNode(parameters, await gateway(fate));
		sandbox.setFaults({ next: [fate] });
		return runNode(parameters, credentialsFor(sandbox));
	};
	const madeBy = (p: IDataObject): { id: string }[] => {
		if (p.resource === 'ticket') return withSubject(sandbox, String(p.subject));
		if (p.resource === 'customer') return [sandbox.store.findCustomerByEmail(String(p.email))!];
		const ticketId = (p.ticketId as { value: string }).value;
		return sandbox.store.listReplies(ticketId).filter((r) => r.body === p.body);
	};
	const reply = (ticketId: () => string, body: string) => () => ({
		resource: 'reply',
		operation: 'create',
		ticketId: byId(ticketId()),
		body,
	});
	const listed = (edit: (answer: lossy.HeldAnswer) => lossy.HeldAnswer) =>
		fates(['lost'], [edit, edit]);

	/** Row: name, parameters, fate, set-up, the output expected from the stored record (default: that record). */
	type Found = [
		string,
		IDataObject | (() => IDataObject),
		Fate,
		(() => void)?,
		((stored: IDataObject) => IDataObject)?,
	];
	it.each<Found>([
		['ticket, processed-503', ticket('found 503'), 'processed-503'],
		['ticket, processed-drop', ticket('found drop'), 'processed-drop'],
		[
			'reply, processed-drop',
			reply(
				() => sandbox.store.listTickets().find((t) => sandbox.store.listReplies(t.id)[0])!.id,
				'recovered',
			),
			'processed-drop',
		],
		['customer, processed-503', customer('found.503@example.com', 'Nia'), 'processed-503'],
		[
			'ticket, a helpdesk rule changing priority and tags at once',
			ticket('rule edits it'),
			fates([
				lostAfter((id) => void sandbox.store.updateTicket(id, { priority: 'low', tags: ['vip'] })),
			]),
			undefined,
			(stored) => ({ ...stored, priority: 'low', tags: ['vip'] }),
		],
		[
			'ticket for an existing customer, the service keeping that customer’s own name',
			ticket('existing customer', {
				customerEmail: 'KNOWN@example.com',
				additionalFields: { customerName: 'Another Name' },
			}),
			fates(['lost']),
			() => void sandbox.store.createCustomer({ email: 'known@example.com', name: 'Known Name' }),
			(stored) => ({
				...stored,
				customer: { ...(stored.customer as IDataObject), name: 'Known Name' },
			}),
		],
		[
			'ticket, a list that leaves out the description',
			ticket('no description listed'),
			listed((answer) => {
				const list = JSON.parse(answer.body) as { data: IDataObject[] };
				for (const record of list.data) delete record.description;
				return { ...answer, body: JSON.stringify(list) };
			}),
			undefined,
			// The record as listed: toEqual takes an undefined field for a missing one.
			(stored) => ({ ...stored, description: undefined }),
		],
		[
			'ticket, a Date header 5 s ahead of the clock that stamps created_at',
			ticket('date ahead'),
			listed((answer) => ({
				...answer,
				headers: { ...answer.headers, date: new Date(Date.now() + 5_000).toUTCString() },
			})),
		],
		[
			'customer whose name an automation fills in, list lagging (the duplicate-e-mail refusal leads to it)',
			customer('filled.in@example.com', 'Lou'),
			fates(
				[lostAfter((id) => void sandbox.store.updateCustomer(id, { name: 'Lou Smith' }))],
				['lagging', 'lagging'],
			),
			undefined,
			(stored) => ({ ...stored, name: 'Lou Smith' }),
		],
		[
			'reply on a ticket with 150 older replies listed oldest first (found on the last page)',
			reply(() => sandbox.store.listTickets()[0].id, 'On its way'),
			fates(['lost']),
			() => {
				const ticketId = sandbox.store.listTickets()[0].id;
				for (let n = 0; n < 150; n++)
					before(700_000 - n * 1000, () =>
						sandbox.store.createReply(ticketId, { body: `Earlier ${n}` }),
					);
				sandbox.store.listQuirks.repliesOldestFirst = true;
			},
		],
	])(
		'%s: the record the service made is returned, none is made twice',
		// A rest parameter: jest takes a function of more parameters than a row has values for one that takes `done`.
		async (...[, p, fate, setUp, expected = (stored) => stored]: Found) => {
			setUp?.();
			const parameters = typeof p === 'function' ? p() : p;
			const result = await run(parameters, fate);
			expect(result.error).toBeUndefined();
			const [record, ...more] = madeBy(parameters);
			expect(more).toEqual([]);
			expect(result.output('Node').map((o) => o.json)).toEqual([expected(record as IDataObject)]);
			if (typeof fate === 'string') {
				const path = sandbox.log[0]?.pathname;
				expect(sandbox.log.map((e) => `${e.method} ${e.pathname} ${e.status}`)).toEqual([
					`POST ${path} ${fate === 'processed-503' ? 503 : 0}`,
					`GET ${path} 200`,
				]);
			}
			expect(warnings.at(-1)).toMatch(
				`but had been processed: found ${String(parameters.resource)} ${String(record.id)} and returned it`,
			);
		},
	);

	const databaseDown: lossy.HeldAnswer = {
		status: 500,
		headers: { 'content-type': 'application/json' },
		body: '{"error":{"code":"internal_error","message":"Database is down"}}',
	};
	type Failed = [string, IDataObject, Fate, number, IDataObject, (() => void)?];
	it.each<Failed>([
		[
			'the lookup fails too',
			ticket('lookup fails'),
			({ method }) => (method === 'POST' ? 'lost' : () => databaseDown),
			1,
			{
				message:
					"The ticket may have been created: the service's answer left it open, and the node could not find out",
				description:
					'The create failed (The service had an error (HTTP 502)), then reading the newest ticket records failed (The service had an error (HTTP 500)): check whether the ticket exists before running this item again.',
			},
		],
		[
			'every attempt processed and its answer lost while the list lags',
			ticket('all answers lost'),
			({ method }) => (method === 'POST' ? 'lost' : 'lagging'),
			8,
			{
				message:
					'The ticket may have been created up to 8 times: the answer to each attempt was lost (last: The service had an error (HTTP 502))',
				description:
					'It was not found among the newest ticket records: check for it before running this item again.',
			},
		],
		[
			'a customer create refused as "e-mail taken" when repeated, the customer existing before the request',
			customer('taken@example.com', 'Tam'),
			fates(['lost'], ['lagging', 'lagging']),
			1,
			{ message: expect.stringMatching(/^The service rejected the data: email/) },
			() => {
				before(10_000, () =>
					sandbox.store.createCustomer({ email: 'taken@example.com', name: 'Tam' }),
				);
				sandbox.setFaults({ next: ['503-bare'] });
			},
		],
	])(
		'%s: the item fails with what the user must check',
		async (...[, parameters, fate, count, error, setUp]: Failed) => {
			setUp?.();
			const result = await run(parameters, fate);
			expect(madeBy(parameters)).toHaveLength(count);
			expect(result.error).toMatchObject(error);
		},
	);

	it.each<[string, (subject: string) => Fate]>([
		[
			'an identical ticket created 10 s before the request',
			(subject) => {
				const email = `${slug(subject)}@example.com`;
				const older = { subject, description: 'Printer on fire', customer: { email } };
				before(10_000, () => sandbox.store.createTicket(older));
				return '503-bare';
			},
		],
		[
			'another ticket of the same customer made in the same seconds while this create was refused',
			(subject) =>
				({ method, posts }) => {
					if (method !== 'POST' || posts !== 1) return 'pass';
					const email = `${slug(subject)}@example.com`;
					const theirs = { subject: 'someone else', description: 'Another problem' };
					sandbox.store.createTicket({ ...theirs, customer: { email } });
					return 'refused';
				},
		],
	])('%s: not taken, the create is sent again', async (subject, fate) => {
		const result = await run(ticket(subject, { additionalFields: {} }), fate(subject));
		expect(result.error).toBeUndefined();
		// Newest first: this request's ticket, made by the second attempt.
		const [mine] = withSubject(sandbox, subject);
		expect(result.output('Node').map((o) => o.json.id)).toEqual([mine.id]);
		expect(warnings).toEqual([
			expect.stringMatching(
				/create of a ticket \(item 0\) failed .* and was not found among the newest ticket records: sending it again/,
			),
			expect.stringMatching(`was sent again \\(attempt 2\\) and created ticket ${mine.id}`),
		]);
	});

	/** Two nodes in a chain, or one node run twice (two branches into it). */
	const twice = (subject: string, shape: string): WorkflowJson => {
		if (shape === 'in two nodes')
			return chainWorkflow(
				start(),
				workflowNode('First', NODE, ticket(subject), { position: [220, 0] }),
				workflowNode('Second', NODE, ticket(subject), { position: [440, 0] }),
			);
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
	};
	/** The first create is processed and its answer held until the second (processed after it, lost) was looked up. */
	const answeredLate = () => {
		const [looked, firstProcessed] = [signal(), signal()];
		return async ({ method, posts }: lossy.GatewayRequest): Promise<lossy.GatewayAnswer> => {
			if (method !== 'POST')
				return (answer) => {
					setImmediate(looked.fire);
					return answer;
				};
			if (posts === 2) return firstProcessed.fired.then(() => 'lost');
			return async (answer) => {
				firstProcessed.fire();
				await looked.fired;
				return answer;
			};
		};
	};

	it.each([
		['identical creates in one run, one answered late and one lost', ''],
		[
			'the same create in two nodes of one execution, the second refused by a bare 503',
			'in two nodes',
		],
		[
			'the same create in one node run twice (two branches into it), the second refused',
			'branches',
		],
	])('%s: two tickets, one each', async (subject, shape) => {
		// The look-up sees both records and waits for the late answer before it chooses.
		const credentials = await gateway(shape ? fates(['pass', 'refused']) : answeredLate());
		const workflow = shape
			? twice(subject, shape)
			: itemsWorkflow([{}, {}], NODE, ticket(subject, { options: { concurrentRequests: 2 } }));
		const result = await runWorkflow(workflow, { supportTicketApi: credentials });
		expect(result.error).toBeUndefined();
		const returned = allOutput(result).filter((json) => json.subject === subject);
		expect(ids(returned)).toEqual(ids(withSubject(sandbox, subject)));
		expect(returned).toHaveLength(2);
	});

	// n8n hands the same item objects to every node connected to one output: a create left open in one node must not
	// become the next node's.
	it('two ticket nodes on one output (one per queue): the first one’s open create does not become the second one’s ticket', async () => {
		const credentials = await gateway(fates(['failed']));
		const node = (queue: string, y: number) =>
			workflowNode(queue, NODE, perItem(`queues ${queue}`, { customerEmail: 'q@example.com' }), {
				position: [220, y],
				onError: 'continueRegularOutput',
			});
		const json = { json: '[{"n":1}]' };
		const items = workflowNode('Items', 'harness.items', json, { credentials: undefined });
		const { nodes, connections } = chainWorkflow(start(), items, node('billing', 0));
		connections.Items.main[0]?.push({ node: 'support', type: 'main', index: 0 });
		const workflow = { nodes: [...nodes, node('support', 200)], connections };
		const settings = { executionOrder: 'v1' } as const;
		const result = await runWorkflow({ ...workflow, settings }, { supportTicketApi: credentials });
		expect(result.error).toBeUndefined();
		expect(String(result.output('billing')[0].json.error)).toMatch(/may have been created/);
		expect(result.output('support')[0].json.subject).toBe('queues support 1');
		const made = sandbox.store.listTickets().filter((t) => t.subject.startsWith('queues'));
		expect(made.map((t) => t.subject)).toEqual(['queues support 1']);
	});

	// Against a service that ignores Idempotency-Key. Expressions are evaluated again on every try: a repeat must
	// still send what its key was first sent with.
	const random = {
		customFieldsJson: '={{ JSON.stringify({ external_ref: String(Math.random()) }) }}',
	};
	it.each([
		['processed, then answered 500', lossy.processedThen500],
		['answered 500 unprocessed', 'failed' as const],
	])(
		'Retry On Fail, the second create %s: every item made once, none sent again once made',
		async (_, fate) => {
			const subject = `retry ${String(fate === 'failed')}`;
			const credentials = await gateway(fates(['pass', fate]));
			const parameters = perItem(subject, { additionalFields: random });
			const workflow = itemsWorkflow([{ n: 1 }, { n: 2 }, { n: 3 }], NODE, parameters, retried);
			const result = await runWorkflow(workflow, { supportTicketApi: credentials });
			expect(result.error).toBeUndefined();
			const made = [1, 2, 3].map((n) => withSubject(sandbox, `${subject} ${n}`));
			expect(made.map((tickets) => tickets.length)).toEqual([1, 1, 1]);
			expect(result.output('Node').map((o) => o.json.id)).toEqual(made.map(([t]) => t.id));
			// The service saw one create per item: the unprocessed 500 never reached it.
			expect(sandbox.countCalls({ method: 'POST' })).toBe(3);
		},
	);

	// A 2xx whose body is not the API's JSON was processed: Retry On Fail must not send it again.
	it('Retry On Fail, the create answered 201 with a proxy page that is not JSON: the ticket it made is not made again', async () => {
		const subject = 'malformed success';
		const page = { headers: { 'content-type': 'text/html' }, body: '<html>OK</html>' };
		const credentials = await gateway(fates([(answer) => ({ ...answer, ...page })]));
		const parameters = ticket(subject, { additionalFields: {} });
		const result = await runWorkflow(itemsWorkflow([{}], NODE, parameters, retried), {
			supportTicketApi: credentials,
		});
		expect(result.error?.message).toBe(
			"The ticket was created in an earlier try, but the service's answer could not be read",
		);
		expect(withSubject(sandbox, subject)).toHaveLength(1);
	});
});

describe('Idempotency-Key, against a service that honours it', () => {
	const { sandbox } = useSandbox({ seed: 3, idempotencyKeys: true });
	const gateway = lossy.useGateway(sandbox);
	const settings = Container.get(InstanceSettings);
	const ownId = settings.instanceId;
	afterEach(() => (settings.instanceId = ownId));

	it('each item sends its own key, the same on every attempt and on Retry On Fail: one ticket per item', async () => {
		const subject = 'honoured key';
		// Item 1's create is lost while the list lags: sent again. Item 2's is refused as invalid: n8n runs the node again.
		const invalid: lossy.GatewayAnswer = (answer) => ({ ...answer, status: 422 });
		const credentials = await gateway(fates(['lost', 'pass', invalid], ['lagging', 'lagging']));
		const parameters = perItem(subject, { options: { concurrentRequests: 1 } });
		const workflow = itemsWorkflow([{ n: 1 }, { n: 2 }], NODE, parameters, retried);
		const result = await runWorkflow(workflow, { supportTicketApi: credentials });
		expect(result.error).toBeUndefined();
		const keys = sandbox.log.filter((e) => e.method === 'POST').map((e) => e.idempotencyKey);
		expect(keys).toEqual([keys[0], keys[0], keys[2], keys[2]]);
		expect(keys[0]).not.toBe(keys[2]);
		const made = [1, 2].map((n) => withSubject(sandbox, `${subject} ${n}`));
		expect(made.map((tickets) => tickets.length)).toEqual([1, 1]);
		expect(result.output('Node').map((o) => o.json.id)).toEqual(made.map(([t]) => t.id));
	});

	// The docs: "two instances or a reset database never share" an Idempotency-Key (a restored backup repeats ids).
	it.each([
		['by two instances, each as its execution "1"', ['instance-a', 'instance-b'], '1'],
		[
			'by one instance after a database backup was restored (execution "41" again)',
			['same', 'same'],
			'41',
		],
	])(
		'the same example run twice %s: each run creates its own ticket, under a key of its own',
		async (_, instances, executionId) => {
			const credentials = { supportTicketApi: credentialsFor(sandbox) };
			const before = sandbox.store.listTickets().length;
			for (const instanceId of instances) {
				settings.instanceId = instanceId;
				const result = await runWorkflow(load('create-reply-update.json'), credentials, {
					executionId,
				});
				expect(result.error).toBeUndefined();
			}
			expect(sandbox.store.listTickets()).toHaveLength(before + 2);
			const keys = sandbox.log
				.filter((e) => e.method === 'POST' && e.pathname.endsWith('/tickets'))
				.map((e) => e.idempotencyKey);
			expect(new Set(keys).size).toBe(2);
		},
	);
});

describe('on a service clock the test sets', () => {
	const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
	const { sandbox } = useSandbox({ seed: 7, now: () => clock.ms, maxSkewSeconds: 10 ** 9 });
	const gateway = lossy.useGateway(sandbox);
	afterEach(() => (sandbox.store.ticketCreatedRule = undefined));

	it('near-twins (another priority, rewritten by a helpdesk rule), both answers lost, the second item’s request processed first: no item gets the other’s ticket, none is made twice', async () => {
		const subject = 'near twin';
		const madeFrom = new Map<string, string>();
		const [firstLookUp, bothArrived, lowProcessed] = [signal(), signal(), signal()];
		const lostAfterRule = (priority: string) =>
			lostAfter((id) => {
				madeFrom.set(id, priority);
				sandbox.store.updateTicket(id, { priority: 'urgent' });
				clock.ms += 1000;
				lowProcessed.fire();
			});
		const credentials = await gateway(async ({ method, posts, body }) => {
			if (method !== 'POST') {
				firstLookUp.fire();
				return 'pass';
			}
			if (posts === 2) bothArrived.fire();
			await bothArrived.fired;
			// The low-priority item's request is processed first; its lost answer reaches the node after the other item looked.
			if (!body.includes('"low"')) return lowProcessed.fired.then(() => lostAfterRule('high'));
			const lost = lostAfterRule('low');
			return async (answer) => {
				lost(answer);
				await firstLookUp.fired;
				return lossy.BAD_GATEWAY;
			};
		});
		const parameters = ticket(subject, { customerEmail: 'twins@example.com', ...itemsPriority });
		const items = [{ priority: 'high' }, { priority: 'low' }];
		const workflow = itemsWorkflow(items, NODE, parameters, { onError: 'continueRegularOutput' });
		const result = await runWorkflow(workflow, { supportTicketApi: credentials });
		expect(withSubject(sandbox, subject)).toHaveLength(2);
		const outcomes = result
			.output('Node')
			.map((o) => (o.json.id ? madeFrom.get(String(o.json.id)) : String(o.json.error)));
		expect(outcomes[0]).toMatch(/^high$|may have been created/);
		expect(outcomes[1]).toMatch(/^low$|may have been created/);
	});

	// What one execution's creates claim is kept per execution: nothing is shared with another one.
	it.each([
		['near-twins (another priority) that a helpdesk rule rewrites', 'rule', ['high', 'low']],
		['identical requests (two deliveries of one alert)', 'none', ['high', 'high']],
	])(
		'two executions at once, each creating one ticket, both answers lost after processing, %s: each execution gets its own ticket, or fails with "may have been created"; never both the same',
		async (_, rule, priorities) => {
			const subject = `two executions ${rule}`;
			if (rule === 'rule') sandbox.store.ticketCreatedRule = { priority: 'urgent' };
			let arrived = 0;
			const both = signal();
			const credentials = await gateway(async ({ method }) => {
				if (method !== 'POST') return 'pass';
				if (++arrived === 2) both.fire();
				await both.fired;
				// Processed one after another (created_at a second apart), both answers lost at the gateway.
				return () => {
					clock.ms += 1000;
					return lossy.BAD_GATEWAY;
				};
			});
			const parameters = ticket(subject, { customerEmail: 'alerts@example.com', ...itemsPriority });
			const workflow = (priority: string) =>
				itemsWorkflow([{ priority }], NODE, parameters, { onError: 'continueRegularOutput' });
			const results = await Promise.all(
				priorities.map((p) => runWorkflow(workflow(p), { supportTicketApi: credentials })),
			);
			expect(withSubject(sandbox, subject)).toHaveLength(2);
			const taken = results
				.map((r) => r.output('Node')[0].json.id)
				.filter((id) => id !== undefined);
			expect(taken).toEqual([...new Set(taken)]);
		},
	);
});
