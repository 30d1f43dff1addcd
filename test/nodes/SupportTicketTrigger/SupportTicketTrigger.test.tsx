import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import {
	chainWorkflow,
	startWebhookReceiver,
	useSandbox,
	workflowNode,
	type WebhookReceiver,
	type WorkflowJson,
} from '../../harness';
import { byId, NODE } from '../supportTicketNode';
import { deliver, nowSeconds, type DeliveryParts } from './deliveries';

const TRIGGER = 'n8n-nodes-support-ticket.supportTicketTrigger';
const WEBHOOK_SECRET = 'whsec-ünïcode "quoted" secret';

const { sandbox, credentials } = useSandbox({ seed: 3 });

/** Support Ticket Trigger → Support Ticket (get the ticket the event names): the webhook sync recipe. */
function syncWorkflow(parameters: IDataObject = {}): WorkflowJson {
	const trigger = workflowNode(
		'On Event',
		TRIGGER,
		{ events: ['*'], ...parameters },
		{ webhookId: 'b5a5c1c4-0000-4000-8000-000000000001' },
	);
	const ticketId = byId('={{ $json.data.ticket_id ?? $json.data.id }}');
	const getTicket = workflowNode(
		'Get Ticket',
		NODE,
		{ resource: 'ticket', operation: 'get', ticketId },
		{ position: [220, 0] },
	);
	return chainWorkflow(trigger, getTicket);
}

async function withReceiver<T>(
	parameters: IDataObject,
	creds: ICredentialDataDecryptedObject,
	body: (receiver: WebhookReceiver) => Promise<T>,
): Promise<T> {
	const receiver = await startWebhookReceiver(
		syncWorkflow(parameters),
		{ supportTicketApi: creds },
		'On Event',
	);
	try {
		return await body(receiver);
	} finally {
		await receiver.stop();
	}
}

/** A delivery to `receiver` signed with the API Secret; `parts` forge or tamper with it. */
const signed = (receiver: WebhookReceiver, body: string, parts: Partial<DeliveryParts> = {}) =>
	deliver({ url: receiver.url, secret: sandbox.apiSecret, body, ...parts });

/** Subscribes `receiver` to the sandbox's webhooks while `act` changes data; the deliveries once sent and their runs done. */
async function deliveriesOf(
	receiver: WebhookReceiver,
	subscription: { events?: string[]; secret?: string },
	act: () => void,
) {
	const hook = sandbox.addWebhook({ url: receiver.url, ...subscription });
	try {
		act();
		await sandbox.webhooksIdle();
		await receiver.idle();
		return sandbox.deliveries.filter((d) => d.webhookId === hook);
	} finally {
		sandbox.removeWebhook(hook);
	}
}

describe("Support Ticket Trigger receiving the sandbox's signed deliveries", () => {
	it('starts the workflow once per event with the delivery as the item, and the next node reads the ticket', async () => {
		await withReceiver({}, credentials, async (receiver) => {
			const events = ['ticket.created', 'ticket.updated', 'reply.created'];
			let ticketId = '';
			const mine = await deliveriesOf(receiver, { events }, () => {
				ticketId = sandbox.store.createTicket({
					subject: 'Printer on fire',
					description: 'Again',
					customer: { email: 'ops@example.com' },
				}).id;
				sandbox.store.updateTicket(ticketId, { status: 'pending' });
				sandbox.store.createReply(ticketId, { body: 'We are on it' });
			});
			expect(mine.map((d) => [d.event, d.status])).toEqual(events.map((event) => [event, 200]));
			const triggered = receiver.executions.map((run) => run.output('On Event')[0].json);
			expect(triggered.map((item) => item.event)).toEqual(events);
			expect(triggered[0]).toEqual(mine[0].payload);
			for (const run of receiver.executions) {
				expect(run.error).toBeUndefined();
				expect(run.output('Get Ticket')[0].json).toMatchObject({
					id: ticketId,
					subject: 'Printer on fire',
				});
			}
		});
	});

	it('answers 200 and starts nothing for events that are not selected; custom and prefix names can be added', async () => {
		await withReceiver(
			{ events: ['ticket.created'], options: { customEvents: 'customer.*' } },
			credentials,
			async (receiver) => {
				const mine = await deliveriesOf(receiver, {}, () => {
					const ticket = sandbox.store.createTicket({
						subject: 's',
						description: 'd',
						customer: { email: 'filter@example.com' },
					});
					sandbox.store.updateTicket(ticket.id, { priority: 'urgent' });
					sandbox.store.createCustomer({ email: 'filtered.in@example.com' });
					sandbox.emit('ticket.merged', { id: ticket.id });
				});
				// A ticket for a new e-mail address also creates its customer (customer.created first).
				expect(mine.map((d) => [d.event, d.status])).toEqual([
					['customer.created', 200],
					['ticket.created', 200],
					['ticket.updated', 200],
					['customer.created', 200],
					['ticket.merged', 200],
				]);
				const started = receiver.executions.map((run) => run.output('On Event')[0].json.event);
				expect(started).toEqual(['customer.created', 'ticket.created', 'customer.created']);
				expect(receiver.deliveries[2].body).toContain('event ticket.updated is not selected');
				expect(receiver.deliveries[4].body).toContain('event ticket.merged is not selected');
			},
		);
	});

	it('the separate Webhook Secret, and its rotation: the old secret passes only while Previous Webhook Secret holds it', async () => {
		// The steps of docs/webhook-trigger.md#rotating-the-webhook-secret.
		const [oldSecret, newSecret] = [WEBHOOK_SECRET, 'whsec-новый 🔑 secret'];
		// Edited between deliveries, as a user saves the credential while the workflow is active.
		const creds = { ...credentials, webhookSecret: oldSecret, previousWebhookSecret: '' };
		await withReceiver({}, creds, async (receiver) => {
			let customers = 0;
			/** The service signs an event with `secret`: the trigger's answer. */
			const deliveredWith = async (secret: string) =>
				(
					await deliveriesOf(receiver, { events: ['customer.created'], secret }, () =>
						sandbox.store.createCustomer({ email: `rotation.${++customers}@example.com` }),
					)
				).map((d) => d.status);
			expect(await deliveredWith(oldSecret)).toEqual([200]);
			// With a Webhook Secret, the API Secret no longer signs deliveries.
			expect(await deliveredWith(sandbox.apiSecret)).toEqual([401]);
			// 1. Webhook Secret new, Previous old; the service still signs with the old one.
			Object.assign(creds, { webhookSecret: newSecret, previousWebhookSecret: oldSecret });
			expect(await deliveredWith(oldSecret)).toEqual([200]);
			// 2. The service switches; deliveries it signed just before are still on their way.
			expect(await deliveredWith(newSecret)).toEqual([200]);
			expect(await deliveredWith(oldSecret)).toEqual([200]);
			// 3. Previous cleared: only the new secret passes.
			creds.previousWebhookSecret = '';
			expect(await deliveredWith(newSecret)).toEqual([200]);
			expect(await deliveredWith(oldSecret)).toEqual([401]);
			expect(receiver.executions).toHaveLength(5);
		});
	});
});

describe('Support Ticket Trigger rejects what is not genuinely signed, with the options that change what is', () => {
	// One moment for all: an event sent again has the same bytes.
	const createdAt = new Date().toISOString();
	const payload = (id: string) =>
		JSON.stringify({ id, event: 'ticket.created', created_at: createdAt, data: { id: 'tkt_1' } });

	const publicPath = '/n8n/webhook/b5a5c1c4-0000-4000-8000-000000000001/support-ticket';
	/** A proxy in front of n8n rewrote the path the service signed. */
	const proxied = (receiver: WebhookReceiver) => ({
		url: `${receiver.url}?tenant=7`,
		signedPath: `${publicPath}?tenant=7`,
	});

	// Which forgery gets which cause: signature.test.tsx and verifyWebhookSignature.test.tsx.
	it.each<[string, IDataObject, number, (receiver: WebhookReceiver) => Partial<DeliveryParts>]>([
		['a body other than the signed bytes', {}, 401, () => ({ sentBody: payload('evt_f2') })],
		['a timestamp 10 minutes old', {}, 401, () => ({ timestamp: nowSeconds(-600) })],
		[
			'the same, Timestamp Window 900 s',
			{ toleranceSeconds: 900 },
			200,
			() => ({ timestamp: nowSeconds(-600) }),
		],
		[
			'a repeated signature header',
			{},
			401,
			() => ({ headers: { 'x-api-signature': ['0', '1'] } }),
		],
		['a path rewritten by a proxy', {}, 401, proxied],
		['the same, Public Path naming the path the service signed', { publicPath }, 200, proxied],
	])(
		'%s (options %j): %i; a refusal names the cause, not the secret, and starts nothing',
		async (_name, options, status, forgery) => {
			await withReceiver({ options }, credentials, async (receiver) => {
				const answer = await signed(receiver, payload('evt_f1'), forgery(receiver));
				expect(answer.status).toBe(status);
				expect(answer.body).not.toContain(sandbox.apiSecret);
				if (status === 401)
					expect(JSON.parse(answer.body)).toMatchObject({ error: expect.any(String) });
				await receiver.idle();
				expect(receiver.executions).toHaveLength(status === 200 ? 1 : 0);
			});
		},
	);

	it('with verification off, accepts an unsigned delivery (the panel warns), and can include the headers but those with credentials', async () => {
		await withReceiver(
			{ verifySignature: false, options: { includeHeaders: true } },
			credentials,
			async (receiver) => {
				const answer = await deliver({
					url: receiver.url,
					secret: 'x',
					body: payload('evt_u1'),
					headers: {
						'x-api-signature': null,
						'x-api-timestamp': null,
						authorization: 'Bearer abc',
						cookie: 'session=1',
					},
				});
				expect(answer.status).toBe(200);
				await receiver.idle();
				const item = receiver.executions[0].output('On Event')[0].json;
				expect(item).toMatchObject({
					id: 'evt_u1',
					event: 'ticket.created',
					headers: { 'content-type': 'application/json' },
				});
				// Headers that carry credentials (the API key too) are left out.
				const names = Object.keys(item.headers as IDataObject);
				expect(names.filter((name) => /^(x-api-key|authorization|cookie)$/.test(name))).toEqual([]);
			},
		);
	});

	it('Drop Repeated Deliveries off: a repeated event id starts the workflow again', async () => {
		await withReceiver({ options: { dropDuplicates: false } }, credentials, async (receiver) => {
			for (let i = 0; i < 2; i++)
				expect((await signed(receiver, payload('evt_r1'))).status).toBe(200);
			await receiver.idle();
			expect(receiver.executions).toHaveLength(2);
		});
	});
});

describe('Support Ticket Trigger: which deliveries count as repeated (signed bytes only)', () => {
	const started = (receiver: WebhookReceiver) =>
		receiver.executions.map((run) => run.output('On Event')[0].json);

	/** An event whose envelope `id` is the ticket's, as some services send: the same id on every event of that ticket. */
	const ticketEvent = (status: string) =>
		JSON.stringify({ id: 'tkt_1', event: 'ticket.updated', data: { id: 'tkt_1', status } });
	const answerOf = async (sent: Promise<{ body: string }>) =>
		JSON.parse((await sent).body) as IDataObject;

	// Also a payload that is the resource itself: the id is not what is remembered, the signed bytes are.
	it("events that share an envelope id (the ticket's) each start the workflow; only the same bytes again are dropped", async () => {
		await withReceiver({}, credentials, async (receiver) => {
			const send = (status: string, headers = {}) =>
				signed(receiver, ticketEvent(status), { headers });
			expect(await answerOf(send('pending'))).toEqual({ received: true, started: true });
			expect(await answerOf(send('solved'))).toEqual({ received: true, started: true });
			// A new x-event-id header does not make it new: the header is not signed.
			expect(await answerOf(send('pending', { 'x-event-id': 'evt_forged_new_id' }))).toEqual({
				received: true,
				started: false,
				reason: 'event tkt_1 was already received',
			});
			await receiver.idle();
			expect(started(receiver).map((item) => (item.data as IDataObject).status)).toEqual([
				'pending',
				'solved',
			]);
		});
	});

	it('two deliveries at the same moment of distinct events sharing an envelope id both start the workflow; the race can only let a repeat through', async () => {
		await withReceiver({}, credentials, async (receiver) => {
			const send = (status: string) => signed(receiver, ticketEvent(status));
			expect(await answerOf(send('open'))).toMatchObject({ started: true });
			// Both load the static data (which knows tkt_1) before either saves it.
			receiver.together(2);
			const atOnce = await Promise.all([answerOf(send('pending')), answerOf(send('solved'))]);
			expect(atOnce).toEqual([
				{ received: true, started: true },
				{ received: true, started: true },
			]);
			await receiver.idle();
			expect(
				started(receiver)
					.map((item) => (item.data as IDataObject).status)
					.sort(),
			).toEqual(['open', 'pending', 'solved']);
			// The last save wins, so one of the two was forgotten: its repeat starts the workflow again.
			const repeats = [await answerOf(send('pending')), await answerOf(send('solved'))];
			expect(repeats.map((answer) => answer.started).sort()).toEqual([false, true]);
		});
	});
});
