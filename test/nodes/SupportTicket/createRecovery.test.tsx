import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, itemsWorkflow, runWorkflow, useSandbox } from '../../harness';
import type { Sandbox } from '../../../sandbox';
import { byId, NODE, runNode } from '../supportTicketNode';
import { useWarningsWithoutWaits } from './warningsWithoutWaits';
import { type HeldAnswer, useGateway } from './lossyGateway';

// A create whose answer is lost after the service may have processed it: the node returns the record it finds, or
// sends the request again.

const warnings = useWarningsWithoutWaits();

const run = (sandbox: Sandbox, parameters: IDataObject) =>
	runNode(parameters, credentialsFor(sandbox));

const requests = (sandbox: Sandbox) =>
	sandbox.log.map((e) => `${e.method} ${e.pathname} ${e.status}`);
const newTicket = (subject: string): IDataObject => ({
	resource: 'ticket',
	operation: 'create',
	subject,
	description: 'Printer on fire',
	customerEmail: 'Recovery@Example.com',
	additionalFields: {
		customerName: 'Rita',
		priority: 'high',
		customFieldsJson: '{"tags":["a","b"],"external_ref":"X-1"}',
	},
});

describe('a create that may have been processed', () => {
	const { sandbox } = useSandbox({ seed: 14 });
	const ticketsWith = (subject: string) =>
		sandbox.store.listTickets().filter((t) => t.subject === subject);

	it.each([
		['ticket', 'processed-503'],
		['ticket', 'processed-drop'],
		['reply', 'processed-drop'],
		['customer', 'processed-503'],
	] as const)(
		'%s, %s: the record the service made is returned, none is made twice',
		async (what, fault) => {
			const ticketId = sandbox.store
				.listTickets()
				.find((t) => sandbox.store.listReplies(t.id).length > 0)?.id as string;
			const email = `recovered.${fault}@example.com`;
			const subject = `recovered ${fault}`;
			const { parameters, path, made } = {
				ticket: {
					parameters: newTicket(subject),
					path: '/tickets',
					made: () => ticketsWith(subject),
				},
				reply: {
					parameters: {
						resource: 'reply',
						operation: 'create',
						ticketId: byId(ticketId),
						body: subject,
					},
					path: `/tickets/${ticketId}/replies`,
					made: () => sandbox.store.listReplies(ticketId).filter((r) => r.body === subject),
				},
				customer: {
					parameters: {
						resource: 'customer',
						operation: 'create',
						email,
						additionalFields: { name: 'Nia' },
					},
					path: '/customers',
					made: () => [sandbox.store.findCustomerByEmail(email)],
				},
			}[what];
			sandbox.setFaults({ next: [fault] });
			const result = await run(sandbox, parameters);
			expect(result.error).toBeUndefined();
			const records = made();
			expect(records).toHaveLength(1);
			expect(result.output('Node').map((o) => o.json)).toEqual(records);
			expect(requests(sandbox)).toEqual([
				`POST /api/v1/external${path} ${fault === 'processed-503' ? 503 : 0}`,
				`GET /api/v1/external${path} 200`,
			]);
			expect(warnings).toEqual([
				expect.stringMatching(
					`create of a ${what} \\(item 0\\) failed .* but had been processed: found ${what} ${String(records[0]?.id)} and returned it`,
				),
			]);
		},
	);
});

describe('when the lookup fails too', () => {
	const { sandbox } = useSandbox({ seed: 2 });
	const gateway = useGateway(sandbox);

	it('fails the item with an error that says the ticket may exist, and does not send it again', async () => {
		// The POST is processed but answered 502; every list is answered 500.
		const databaseDown = (): HeldAnswer => ({
			status: 500,
			headers: { 'content-type': 'application/json' },
			body: '{"error":{"code":"internal_error","message":"Database is down"}}',
		});
		const credentials = await gateway(({ method }) => (method === 'POST' ? 'lost' : databaseDown));
		const before = sandbox.store.ticketCount;
		const result = await runNode(newTicket('lookup fails'), credentials);
		expect(sandbox.store.ticketCount).toBe(before + 1);
		expect(sandbox.countCalls({ method: 'POST' })).toBe(1);
		expect(result.error?.message).toBe(
			"The ticket may have been created: the service's answer left it open, and the node could not find out",
		);
		expect(result.error?.description).toBe(
			'The create failed (The service had an error (HTTP 502)), then reading the newest ticket records failed (The service had an error (HTTP 500)): check whether the ticket exists before running this item again.',
		);
	});
});

describe('a service whose clock is 90 s behind this machine’s', () => {
	const { sandbox } = useSandbox({ seed: 2, now: () => Date.now() - 90_000 });

	it('the record is found on the service’s clock (its Date header), not sent again', async () => {
		sandbox.setFaults({ next: ['processed-drop'] });
		const result = await run(sandbox, newTicket('clock behind'));
		expect(result.error).toBeUndefined();
		const made = sandbox.store.listTickets().filter((t) => t.subject === 'clock behind');
		expect(made).toHaveLength(1);
		expect(result.output('Node')[0].json.id).toBe(made[0].id);
		expect(sandbox.countCalls({ method: 'POST' })).toBe(1);
	});
});

describe('what counts as this request’s record', () => {
	// The service's clock can be set back, to make records that were created before the request.
	let shiftMs = 0;
	const { sandbox } = useSandbox({ seed: 2, now: () => Date.now() + shiftMs });
	const gateway = useGateway(sandbox);
	afterEach(() => (shiftMs = 0));
	// A customer create processed but answered 502; the first two lists miss it (as a lagging replica would).
	const lostCustomer = () =>
		gateway(({ method, posts, lists }) =>
			method === 'POST' ? (posts === 1 ? 'lost' : 'pass') : lists <= 2 ? 'lagging' : 'pass',
		);

	it('an identical ticket created 10 s before the request is not taken for it: the create is sent again', async () => {
		shiftMs = -10_000;
		const older = sandbox.store.createTicket({
			subject: 'made before',
			description: 'Printer on fire',
			customer: { email: 'recovery@example.com' },
		});
		shiftMs = 0;
		sandbox.setFaults({ next: ['503-bare'] });
		const result = await run(sandbox, {
			resource: 'ticket',
			operation: 'create',
			subject: 'made before',
			description: 'Printer on fire',
			customerEmail: 'recovery@example.com',
		});
		expect(result.error).toBeUndefined();
		const made = sandbox.store.listTickets().filter((t) => t.subject === 'made before');
		expect(made).toHaveLength(2);
		expect(result.output('Node')[0].json.id).not.toBe(older.id);
		expect(sandbox.countCalls({ method: 'POST' })).toBe(2);
	});

	it('a ticket for an existing customer is found though the service kept that customer’s own name', async () => {
		const existing = sandbox.store.createCustomer({
			email: 'known@example.com',
			name: 'Known Name',
		});
		sandbox.setFaults({ next: ['processed-drop'] });
		const result = await run(sandbox, {
			...newTicket('existing customer'),
			customerEmail: 'KNOWN@example.com',
			additionalFields: { customerName: 'Another Name' },
		});
		expect(result.error).toBeUndefined();
		const made = sandbox.store.listTickets().filter((t) => t.subject === 'existing customer');
		expect(made).toHaveLength(1);
		expect(made[0].customer).toMatchObject({ id: existing.id, name: 'Known Name' });
		expect(result.output('Node')[0].json.id).toBe(made[0].id);
		expect(sandbox.countCalls({ method: 'POST' })).toBe(1);
	});

	it('a customer create refused as "e-mail taken" when repeated, the customer existing before the request: the service’s ordinary refusal', async () => {
		shiftMs = -10_000;
		sandbox.store.createCustomer({ email: 'taken@example.com', name: 'Tam' });
		shiftMs = 0;
		sandbox.setFaults({ next: ['503-bare'] });
		const result = await runNode(
			{
				resource: 'customer',
				operation: 'create',
				email: 'taken@example.com',
				additionalFields: { name: 'Tam' },
			},
			await lostCustomer(),
		);
		expect(result.error?.message).toMatch(/^The service rejected the data: email/);
	});
});

describe('identical creates in one run, one answered late and one lost', () => {
	const { sandbox } = useSandbox({ seed: 3 });
	const gateway = useGateway(sandbox);

	it('the lost one does not take the record whose answer is still on its way: two tickets, one each', async () => {
		const subject = 'twins, one answered late';
		// The first POST is processed and its answer held until the second (processed after it, answered 502) was looked
		// up: the look-up sees both records and waits for that answer before it chooses.
		let release = (): void => undefined;
		const released = new Promise<void>((resolve) => (release = resolve));
		let firstProcessed = (): void => undefined;
		const processed = new Promise<void>((resolve) => (firstProcessed = resolve));
		const credentials = await gateway(async ({ method, posts }) => {
			if (method !== 'POST')
				return (answer) => {
					setImmediate(release);
					return answer;
				};
			if (posts === 2) {
				await processed; // made after the first one
				return 'lost';
			}
			return async (answer) => {
				firstProcessed();
				await released;
				return answer;
			};
		});
		const result = await runWorkflow(
			itemsWorkflow([{}, {}], NODE, { ...newTicket(subject), options: { concurrentRequests: 2 } }),
			{ supportTicketApi: credentials },
		);
		expect(result.error).toBeUndefined();
		const made = sandbox.store.listTickets().filter((t) => t.subject === subject);
		expect(made).toHaveLength(2);
		const returned = result.output('Node').map((o) => o.json.id);
		expect([...returned].sort()).toEqual(made.map((t) => t.id).sort());
	});
});
