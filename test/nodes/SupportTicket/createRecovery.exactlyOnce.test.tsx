import { Container } from '@n8n/di';
import { InstanceSettings } from 'n8n-core';
import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, itemsWorkflow, runWorkflow, useSandbox } from '../../harness';
import { load } from '../../examples/postgresExamples';
import { NODE } from '../supportTicketNode';
import { useWarningsWithoutWaits } from './warningsWithoutWaits';
import { BAD_GATEWAY, type GatewayAnswer, processedThen500, useGateway } from './lossyGateway';

// Exactly once in every shape n8n calls a create in: Retry On Fail, two instances, two executions at once, near-twins
// whose answers are lost.

useWarningsWithoutWaits();

const ticket = (subject: string): IDataObject => ({
	resource: 'ticket',
	operation: 'create',
	subject: `={{ "${subject} " + $json.n }}`,
	description: 'Printer on fire',
	customerEmail: 'retry@example.com',
	// Evaluated again on every try: a repeat must still send what its key was first sent with.
	additionalFields: {
		customFieldsJson: '={{ JSON.stringify({ external_ref: String(Math.random()) }) }}',
	},
});

/** A create of `subject` for `customerEmail`, the priority the item's. */
const prioritised = (subject: string, customerEmail: string): IDataObject => ({
	...ticket(subject),
	subject,
	customerEmail,
	additionalFields: { priority: '={{ $json.priority }}' },
});

describe.each([
	['honours Idempotency-Key', true],
	['ignores Idempotency-Key', false],
])('Retry On Fail against a service that %s', (_, idempotencyKeys) => {
	const { sandbox } = useSandbox({ seed: 5, idempotencyKeys });
	const gateway = useGateway(sandbox);

	it.each([
		['processed, then answered 500', processedThen500],
		['answered 500 unprocessed', 'failed' as const],
	])(
		'the second create %s: every item made once, none sent again once made, no 422',
		async (_case, fate) => {
			const subject = `retry ${String(fate === 'failed')} ${String(idempotencyKeys)}`;
			const credentials = await gateway(({ method, posts: n }) =>
				method === 'POST' && n === 2 ? fate : 'pass',
			);
			const workflow = itemsWorkflow([{ n: 1 }, { n: 2 }, { n: 3 }], NODE, ticket(subject), {
				retryOnFail: true,
				maxTries: 2,
				waitBetweenTries: 1,
			});
			const result = await runWorkflow(workflow, { supportTicketApi: credentials });
			expect(result.error).toBeUndefined();
			const made = [1, 2, 3].map((n) =>
				sandbox.store.listTickets().filter((t) => t.subject === `${subject} ${n}`),
			);
			expect(made.map((tickets) => tickets.length)).toEqual([1, 1, 1]);
			expect(result.output('Node').map((o) => o.json.id)).toEqual(made.map(([t]) => t.id));
			expect(sandbox.log.filter((e) => e.status === 422)).toEqual([]);
			// The service saw one create per item: the unprocessed 500 never reached it.
			expect(sandbox.countCalls({ method: 'POST' })).toBe(3);
		},
	);

	// A 2xx whose body is not the API's JSON was processed: Retry On Fail must not send it again.
	it('the create answered 201 with a proxy page that is not JSON: the ticket it made is not made again', async () => {
		const subject = `malformed success ${String(idempotencyKeys)}`;
		const credentials = await gateway(({ method, posts: n }) =>
			method === 'POST' && n === 1
				? (answer) => ({
						...answer,
						headers: { 'content-type': 'text/html' },
						body: '<html>OK</html>',
					})
				: 'pass',
		);
		const parameters = { ...ticket(subject), subject, additionalFields: {} };
		const workflow = itemsWorkflow([{ n: 1 }], NODE, parameters, {
			retryOnFail: true,
			maxTries: 2,
			waitBetweenTries: 1,
		});
		await runWorkflow(workflow, { supportTicketApi: credentials });
		expect(sandbox.store.listTickets().filter((t) => t.subject === subject)).toHaveLength(1);
	});
});

// The docs: "two instances or a reset database never share" an Idempotency-Key (a restored backup repeats ids).
describe('the same example run twice with the same execution id', () => {
	const { sandbox } = useSandbox({ seed: 6, idempotencyKeys: true });
	const settings = Container.get(InstanceSettings);
	const ownId = settings.instanceId;
	afterEach(() => (settings.instanceId = ownId));

	it.each([
		['by two instances, each as its execution "1"', ['instance-a', 'instance-b'], '1'],
		[
			'by one instance after a database backup was restored (execution "41" again)',
			['same', 'same'],
			'41',
		],
	])(
		'%s: each run creates its own ticket, under a key of its own',
		async (_case, instances, executionId) => {
			const example = load('create-reply-update.json');
			const credentials = { supportTicketApi: credentialsFor(sandbox) };
			const before = sandbox.store.listTickets().length;
			for (const instanceId of instances) {
				settings.instanceId = instanceId;
				const result = await runWorkflow(example, credentials, { executionId });
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

describe('near-twins: the same customer, subject and description, another priority that a helpdesk rule rewrites', () => {
	const clock = { ms: Date.parse('2026-11-02T09:00:00.000Z') };
	const { sandbox } = useSandbox({ seed: 7, now: () => clock.ms, maxSkewSeconds: 10 ** 9 });
	const gateway = useGateway(sandbox);

	it('both answers lost, the second item’s request processed first: no item gets the other’s ticket, none is made twice', async () => {
		const subject = 'near twin';
		const madeFrom = new Map<string, string>();
		let release = (): void => undefined;
		const firstLookUpAnswered = new Promise<void>((resolve) => (release = resolve));
		let arrived = (): void => undefined;
		const bothArrived = new Promise<void>((resolve) => (arrived = resolve));
		let lowMade = (): void => undefined;
		const lowProcessed = new Promise<void>((resolve) => (lowMade = resolve));
		const lostAfterRule =
			(priority: string, hold?: Promise<void>): GatewayAnswer =>
			async (answer) => {
				const id = String((JSON.parse(answer.body) as { data: IDataObject }).data.id);
				madeFrom.set(id, priority);
				sandbox.store.updateTicket(id, { priority: 'urgent' });
				clock.ms += 1000;
				lowMade();
				await hold;
				return BAD_GATEWAY;
			};
		const credentials = await gateway(async ({ method, posts, body }) => {
			if (method !== 'POST') {
				release();
				return 'pass';
			}
			if (posts === 2) arrived();
			await bothArrived;
			// The low-priority item's request is processed first; its lost answer reaches the node after the other item looked.
			if (body.includes('"low"')) return lostAfterRule('low', firstLookUpAnswered);
			await lowProcessed;
			return lostAfterRule('high');
		});
		const twin = (priority: string) => ({ priority });
		const workflow = itemsWorkflow(
			[twin('high'), twin('low')],
			NODE,
			prioritised(subject, 'twins@example.com'),
			{ onError: 'continueRegularOutput' },
		);
		const result = await runWorkflow(workflow, { supportTicketApi: credentials });
		const made = sandbox.store.listTickets().filter((t) => t.subject === subject);
		expect(made).toHaveLength(2);
		const outcomes = result
			.output('Node')
			.map((o) => (o.json.id ? madeFrom.get(String(o.json.id)) : String(o.json.error)));
		expect(outcomes[0]).toMatch(/^high$|may have been created/);
		expect(outcomes[1]).toMatch(/^low$|may have been created/);
	});
});

// What one execution's creates claim is kept per execution: nothing is shared with another one.
describe('two executions at once, each creating one ticket, both answers lost after processing', () => {
	const clock = { ms: Date.parse('2026-11-02T09:00:00.000Z') };
	const { sandbox } = useSandbox({ seed: 33, now: () => clock.ms, maxSkewSeconds: 10 ** 9 });
	const gateway = useGateway(sandbox);
	afterEach(() => (sandbox.store.ticketCreatedRule = undefined));

	it.each([
		['near-twins (another priority) that a helpdesk rule rewrites', 'rule', ['high', 'low']],
		['identical requests (two deliveries of one alert)', 'none', ['high', 'high']],
	])(
		'%s: each execution gets its own ticket, or fails with "may have been created"; never both the same',
		async (_case, rule, priorities) => {
			const subject = `two executions ${rule}`;
			if (rule === 'rule') sandbox.store.ticketCreatedRule = { priority: 'urgent' };
			let arrived = 0;
			let bothArrived = (): void => undefined;
			const both = new Promise<void>((resolve) => (bothArrived = resolve));
			const credentials = await gateway(async ({ method }) => {
				if (method !== 'POST') return 'pass';
				if (++arrived === 2) bothArrived();
				await both;
				// Processed one after another (created_at a second apart), both answers lost at the gateway.
				return async () => {
					clock.ms += 1000;
					await both;
					return BAD_GATEWAY;
				};
			});
			const run = (priority: string) =>
				runWorkflow(
					itemsWorkflow([{ priority }], NODE, prioritised(subject, 'alerts@example.com'), {
						onError: 'continueRegularOutput',
					}),
					{ supportTicketApi: credentials },
				);
			const results = await Promise.all(priorities.map(run));
			const made = sandbox.store.listTickets().filter((t) => t.subject === subject);
			expect(made).toHaveLength(2);
			const ids = results
				.map((r) => r.output('Node')[0].json)
				.map((json: IDataObject) =>
					json.id === undefined ? `failed: ${String(json.error)}` : String(json.id),
				);
			const taken = ids.filter((id) => !id.startsWith('failed'));
			expect(taken).toEqual([...new Set(taken)]);
		},
	);
});
