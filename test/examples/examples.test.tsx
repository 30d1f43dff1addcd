import { readdirSync } from 'node:fs';

import { createPoller, repoPath, runWorkflow, startWebhookReceiver, useSandbox } from '../harness';
import { load, pollingTables, POSTGRES_CREDENTIAL } from './postgresExamples';

const STICKY_NOTE = 'n8n-nodes-base.stickyNote';
const SANDBOX_CREDENTIAL = {
	supportTicketApi: { id: 'supportTicketSandbox', name: 'Support Ticket (sandbox)' },
};
const fixture = useSandbox({ seed: 230 });
const sandbox = fixture.sandbox;
const credentials = { supportTicketApi: fixture.credentials };

describe('example workflows, as shipped in examples/', () => {
	it('each one explains itself in a sticky note, carries the credentials of the copy, keeps no workflow static data (queue-mode workers do not get it back), picks Data Tables by ID (n8n matches a name as a substring) and ends in no No Operation placeholder', () => {
		const files = readdirSync(repoPath('examples')).filter((file) => file.endsWith('.json'));
		expect(files.length).toBeGreaterThanOrEqual(14);
		const problems = files.flatMap((file) => {
			const workflow = load(file);
			// Our nodes carry the sandbox credential, n8n's Postgres nodes the copy's (n8n's other nodes carry none).
			const credential = (type: string) =>
				type === 'n8n-nodes-base.postgres'
					? POSTGRES_CREDENTIAL
					: type.startsWith('n8n-nodes-support-ticket.') && SANDBOX_CREDENTIAL;
			const checks: Array<[boolean, string]> = [
				[
					!workflow.nodes.some(
						(n) => n.type === STICKY_NOTE && String(n.parameters.content).length > 80,
					),
					'no sticky note that explains it',
				],
				[JSON.stringify(workflow).includes('getWorkflowStaticData'), 'workflow static data'],
				...workflow.nodes.flatMap(
					(n): Array<[boolean, string]> => [
						[
							!!credential(n.type) &&
								JSON.stringify(n.credentials) !== JSON.stringify(credential(n.type)),
							`${n.name}: not the copy's credentials`,
						],
						[
							![undefined, 'id'].includes((n.parameters.dataTableId as { mode?: string })?.mode),
							`${n.name}: a Data Table by name`,
						],
						[n.type === 'n8n-nodes-base.noOp', `${n.name}: a No Operation placeholder`],
					],
				),
			];
			return checks.filter(([failed]) => failed).map(([, problem]) => `${file}: ${problem}`);
		});
		expect(problems).toEqual([]);
	});

	it.each([
		['large-account-import.json', ['255,000 tickets', '200 MB', 'Publish this workflow']],
		[
			'large-account-import-postgres.json',
			[
				'up to 4,000 records per execution',
				'Publish this workflow',
				'Resume',
				'st_import_state',
				'no older state is ever written over a newer one',
				'null',
				...pollingTables().createStatements,
				'CREATE TABLE IF NOT EXISTS st_import_state (',
			],
		],
		[
			'sync-by-polling.json',
			[
				'No public URL needed',
				'Latency = the poll interval',
				'Safe when executions overlap',
				'sync-webhooks.json',
			],
		],
		['sync-webhooks-postgres.json', ['can create a second row or put an older state last']],
		['sync-reconcile-postgres.json', ['can create a second row or put an older state last']],
	])('%s: its sticky notes say what its user must know', (file, phrases) => {
		const notes = load(file)
			.nodes.filter((node) => node.type === STICKY_NOTE)
			.map((node) => String(node.parameters.content))
			.join('\n');
		expect(phrases.filter((phrase) => !notes.includes(phrase))).toEqual([]);
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
		expect(sandbox.store.listReplies(id).map((reply) => reply.body)).toEqual([
			'Hi Ana Lima, please unplug it. We are on our way.',
		]);
	});

	it('webhook-sync: signed deliveries from the service run Get Ticket for the ticket of each event', async () => {
		const workflow = load('webhook-sync.json');
		const receiver = await startWebhookReceiver(workflow, credentials, 'On Ticket Event');
		const hook = sandbox.addWebhook({ url: receiver.url });
		try {
			const ticket = sandbox.store.createTicket({
				subject: 'Sync me',
				description: 'd',
				customer: { email: 'sync@example.com' },
			});
			sandbox.store.createReply(ticket.id, { body: 'A reply' });
			await sandbox.webhooksIdle();
			await receiver.idle();
			// customer.created is not among the example's events: answered 200, nothing started.
			expect(
				sandbox.deliveries.filter((d) => d.webhookId === hook).map((d) => [d.event, d.status]),
			).toEqual([
				['customer.created', 200],
				['ticket.created', 200],
				['reply.created', 200],
			]);
			expect(receiver.executions.map((run) => run.output('Get Ticket')[0].json.id)).toEqual([
				ticket.id,
				ticket.id,
			]);
		} finally {
			sandbox.removeWebhook(hook);
			await receiver.stop();
		}
	});

	it('poll-new-tickets: the first poll starts quietly, then each new ticket gets one acknowledgement', async () => {
		const poller = await createPoller(load('poll-new-tickets.json'), credentials, 'On New Ticket');
		expect((await poller.poll()).items).toBeNull();
		const [a, b] = [
			{ subject: 'First', customer: { email: 'a@example.com', name: 'Ada' } },
			{ subject: 'Second', customer: { email: 'b@example.com' } },
		].map((ticket) => sandbox.store.createTicket({ ...ticket, description: 'd' }));
		expect((await poller.poll()).execution?.error).toBeUndefined();
		expect((await poller.poll()).items).toBeNull();
		expect([a, b].map((t) => sandbox.store.listReplies(t.id).map((reply) => reply.body))).toEqual([
			['Hi Ada, thanks for your message about "First". We will get back to you soon.'],
			['Hi there, thanks for your message about "Second". We will get back to you soon.'],
		]);
	});
});
