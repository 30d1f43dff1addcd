import { readdirSync, readFileSync } from 'node:fs';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { createPoller, repoPath, runWorkflow, startWebhookReceiver, type WorkflowJson } from '../harness';
import { startSandbox, type Sandbox } from '../../sandbox';

const load = (file: string) => JSON.parse(readFileSync(repoPath('examples', file), 'utf8')) as WorkflowJson;

let sandbox: Sandbox;
let credentials: Record<string, ICredentialDataDecryptedObject>;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 230 });
	credentials = { supportTicketApi: { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret } };
});
afterAll(async () => sandbox.stop());

describe('example workflows, as shipped in examples/', () => {
	it('each one explains itself in a sticky note and uses the sandbox credential', () => {
		const files = readdirSync(repoPath('examples')).filter((file) => file.endsWith('.json'));
		expect(files.length).toBeGreaterThanOrEqual(4);
		for (const file of files) {
			const workflow = load(file);
			const notes = workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote');
			expect({ file, hasNote: notes.some((note) => String(note.parameters.content).length > 80) }).toEqual({ file, hasNote: true });
			// Our nodes carry the sandbox credential (n8n's own nodes carry none).
			for (const node of workflow.nodes.filter((n) => n.type.startsWith('n8n-nodes-support-ticket.'))) {
				expect({ file, node: node.name, credentials: node.credentials }).toEqual({
					file,
					node: node.name,
					credentials: { supportTicketApi: { id: 'supportTicketSandbox', name: 'Support Ticket (sandbox)' } },
				});
			}
		}
	});

	it('none ends in a No Operation placeholder: each writes its results somewhere real or shows them', () => {
		const files = readdirSync(repoPath('examples')).filter((file) => file.endsWith('.json'));
		const placeholders = files.flatMap((file) => load(file).nodes.filter((node) => node.type === 'n8n-nodes-base.noOp').map((node) => `${file}: ${node.name}`));
		expect(placeholders).toEqual([]);
	});

	it('import-all-tickets returns every ticket once', async () => {
		const run = await runWorkflow(load('import-all-tickets.json'), credentials);
		expect(run.error).toBeUndefined();
		const ids = run.output('Get All Tickets').map((item) => item.json.id);
		expect(ids).toHaveLength(sandbox.store.ticketCount);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it('create-reply-update leaves a solved ticket with the reply', async () => {
		const run = await runWorkflow(load('create-reply-update.json'), credentials);
		expect(run.error).toBeUndefined();
		const id = run.output('Create Ticket')[0].json.id as string;
		expect(sandbox.store.getTicket(id)?.status).toBe('solved');
		expect(sandbox.store.listReplies(id).map((reply) => reply.body)).toEqual(['Hi Ana Lima, please unplug it. We are on our way.']);
	});

	it('webhook-sync: signed deliveries from the service run Get Ticket for the ticket of each event', async () => {
		const workflow = load('webhook-sync.json');
		const receiver = await startWebhookReceiver(workflow, credentials, 'On Ticket Event');
		const hook = sandbox.addWebhook({ url: receiver.url });
		try {
			const ticket = sandbox.store.createTicket({ subject: 'Sync me', description: 'd', customer: { email: 'sync@example.com' } });
			sandbox.store.createReply(ticket.id, { body: 'A reply' });
			await sandbox.webhooksIdle();
			await receiver.idle();
			// customer.created is not among the example's events: answered 200, nothing started.
			expect(sandbox.deliveries.filter((d) => d.webhookId === hook).map((d) => [d.event, d.status])).toEqual([
				['customer.created', 200],
				['ticket.created', 200],
				['reply.created', 200],
			]);
			expect(receiver.executions.map((run) => run.output('Get Ticket')[0].json.id)).toEqual([ticket.id, ticket.id]);
		} finally {
			sandbox.removeWebhook(hook);
			await receiver.stop();
		}
	});

	it('poll-new-tickets: the first poll starts quietly, then each new ticket gets one acknowledgement', async () => {
		const poller = await createPoller(load('poll-new-tickets.json'), credentials, 'On New Ticket');
		expect((await poller.poll()).items).toBeNull();
		const a = sandbox.store.createTicket({ subject: 'First', description: 'd', customer: { email: 'a@example.com', name: 'Ada' } });
		const b = sandbox.store.createTicket({ subject: 'Second', description: 'd', customer: { email: 'b@example.com' } });
		const polled = await poller.poll();
		expect(polled.execution?.error).toBeUndefined();
		expect((await poller.poll()).items).toBeNull();
		expect(sandbox.store.listReplies(a.id).map((reply) => reply.body)).toEqual([
			'Hi Ada, thanks for your message about "First". We will get back to you soon.',
		]);
		expect(sandbox.store.listReplies(b.id).map((reply) => reply.body)).toEqual([
			'Hi there, thanks for your message about "Second". We will get back to you soon.',
		]);
	});
});
