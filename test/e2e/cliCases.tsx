import assert from 'node:assert/strict';

import type { CliContext } from './context';
import {
	assertEveryTicketPageByPage,
	callsSince,
	findWorkflow,
	hasNode,
	lastSeq,
	type WorkflowFile,
} from './fixtures';
import { executeWorkflow, type CliExecution } from './n8n/cli';
import type { N8nUserFolder } from './n8n/userFolder';
import { asRun, nodeOutput, nodeOutputIfRan, onlyItem, type PrintedRun } from './runData';
import type { Suite } from './suite';

function explain({ command }: CliExecution): string {
	return `exit ${command.code}\n${(command.stdout + command.stderr).split('\n').slice(-40).join('\n')}`;
}

/** `n8n execute` of a stored workflow that must succeed; returns what it printed. */
async function executeOk(folder: N8nUserFolder, workflow: WorkflowFile): Promise<PrintedRun> {
	const execution = await executeWorkflow(folder, workflow.id);
	assert.equal(execution.exitCode, 0, `n8n execute ${workflow.file} failed: ${explain(execution)}`);
	const run = asRun(execution.run);
	assert.equal(run.data.resultData.error, undefined, `${workflow.file} ended with an error`);
	return run;
}

/** Headless runs through `n8n execute` of the examples and the e2e workflows, checked against the sandbox. */
export function addCliCases(
	suite: Suite,
	examples: WorkflowFile[],
	context: () => CliContext,
): void {
	/** `n8n execute` of `file` (examples/ or test/e2e/workflows/) that must succeed; the sandbox's log position before it. */
	const execute = async (file: string) => {
		const { folder, sandbox, examples, e2e } = context();
		const before = lastSeq(sandbox);
		const run = await executeOk(folder, findWorkflow([...examples, ...e2e], file));
		return { run, before, sandbox };
	};

	suite.test(
		'examples/import-all-tickets.json: Return All brings every ticket, page by page',
		async () => {
			const { run, before, sandbox } = await execute('examples/import-all-tickets.json');
			const items = nodeOutput(run, 'Get All Tickets');
			assertEveryTicketPageByPage(
				sandbox,
				items.map((item) => item.id),
				before,
			);
			assert.deepEqual(items[0], sandbox.store.listTickets()[0]);
		},
	);

	suite.test(
		'examples/create-reply-update.json: ticket created, replied to and solved in the service',
		async () => {
			const { run, before, sandbox } = await execute('examples/create-reply-update.json');
			const ticket = sandbox.store.getTicket(String(onlyItem(run, 'Create Ticket').id));
			assert.ok(ticket, 'the created ticket exists in the service');
			assert.deepEqual(onlyItem(run, 'Mark Solved'), ticket);
			assert.deepEqual(
				[ticket.status, ticket.priority, ticket.customer.email, ticket.customer.name],
				['solved', 'urgent', 'ana@example.com', 'Ana Lima'],
			);
			assert.deepEqual(
				sandbox.store.listReplies(ticket.id).map((r) => [r.id, r.body]),
				[[onlyItem(run, 'Reply').id, 'Hi Ana Lima, please unplug it. We are on our way.']],
			);
			assert.deepEqual(callsSince(sandbox, before), [
				'POST /tickets 201',
				`POST /tickets/${ticket.id}/replies 201`,
				`PATCH /tickets/${ticket.id} 200`,
			]);
		},
	);

	suite.test('every operation of the node (test/e2e/workflows/every-operation.json)', async () => {
		const { run, sandbox } = await execute('test/e2e/workflows/every-operation.json');
		const { store } = sandbox;
		const [customer, ticket] = [onlyItem(run, 'Create Customer'), onlyItem(run, 'Create Ticket')];
		const ids = (items: Array<{ id?: unknown }>) => items.map((item) => item.id);
		const open = nodeOutput(run, 'Get Many Open Tickets');
		const ticketCustomer = ticket.customer as { id?: unknown };
		const storedCustomer = store.getCustomer(String(customer.id));
		const oldestOpen = store.listTickets({ status: 'open', sortBy: 'updated_at', sort: 'asc' });
		assert.deepEqual(
			{
				created: [customer.email, customer.plan, ticket.priority, ticketCustomer.id],
				got: [onlyItem(run, 'Get Customer'), onlyItem(run, 'Get Ticket')],
				renamed: [onlyItem(run, 'Update Customer').name, storedCustomer?.name],
				reply: onlyItem(run, 'Create Reply').body,
				replies: nodeOutput(run, 'Get Many Replies'),
				customers: ids(nodeOutput(run, 'Get Many Customers')),
				openTickets: ids(open),
				allOpen: open.every((t) => t.status === 'open'),
			},
			{
				created: ['e2e.customer@example.com', 'gold', 'high', customer.id],
				got: [customer, ticket],
				renamed: ['E2E Customer Renamed', 'E2E Customer Renamed'],
				reply: 'Hello E2E Customer Renamed, the invoice is attached.',
				replies: store.listReplies(String(ticket.id)),
				customers: ids(store.listCustomers().slice(0, 3)),
				openTickets: ids(oldestOpen.slice(0, 7)),
				allOpen: true,
			},
		);
	});

	suite.test(
		'a wrong API secret fails the run with the 401 explanation, and nothing is retried blindly',
		async () => {
			const { folder, sandbox, e2e } = context();
			const before = lastSeq(sandbox);
			const { id } = findWorkflow(e2e, 'test/e2e/workflows/wrong-secret.json');
			const execution = await executeWorkflow(folder, id);
			assert.equal(execution.exitCode, 1, `n8n execute must fail: ${explain(execution)}`);
			const error = asRun(execution.run).data.resultData.error;
			assert.ok(error, 'the run result carries the error');
			assert.match(String(error.message), /Authentication failed \(HTTP 401\)/);
			assert.match(String(error.description), /clock/);
			const refused = sandbox.log.filter((e) => e.seq > before);
			assert.ok(
				refused.length >= 1 && refused.length <= 2,
				`one request (and at most one re-signed retry): ${JSON.stringify(refused)}`,
			);
			assert.ok(refused.every((e) => e.status === 401 && e.authError === 'invalid_signature'));
		},
	);

	suite.test(
		"n8n's HTTP Request node with the Support Ticket API credential: GET with query and POST with body are signed and accepted (test/e2e/workflows/http-request-node.json)",
		async () => {
			const { run, before, sandbox } = await execute('test/e2e/workflows/http-request-node.json');
			const listed = onlyItem(run, 'List Open Tickets') as { data: Array<{ id: string }> };
			const open = sandbox.store.listTickets({ status: 'open' }).slice(0, 2);
			assert.deepEqual(
				listed.data.map((t) => t.id),
				open.map((t) => t.id),
			);
			const created = (onlyItem(run, 'Create Customer') as { data: { id: string; name: string } })
				.data;
			assert.equal(created.name, 'Zoë über HTTP');
			assert.equal(sandbox.store.findCustomerByEmail('http.node@example.com')?.id, created.id);
			assert.deepEqual(
				sandbox.log.filter((e) => e.seq > before).map((e) => `${e.method} ${e.path} ${e.status}`),
				[
					'GET /api/v1/external/tickets?status=open&per_page=2 200',
					'POST /api/v1/external/customers 201',
				],
			);
		},
	);

	suite.test(
		'test/e2e/workflows/import-page-by-page.json: the If loop fetches every page once, writes every ticket, and writes each page before it fetches the next',
		async () => {
			const { run, before, sandbox } = await execute('test/e2e/workflows/import-page-by-page.json');
			const written = nodeOutput(run, 'Write Page').map((item) => item.id);
			const pages = assertEveryTicketPageByPage(sandbox, written, before);
			const { 'Get Page of Tickets': reads, 'Write Page': writes } = run.data.resultData.runData;
			assert.deepEqual(
				[reads.length, writes.length],
				[pages, pages],
				'one read and one write per page',
			);
			assert.ok(
				reads.every(
					(task) =>
						task.data?.main?.[0]?.length === 1 && Number(task.data.main[0][0].json.count) <= 100,
				),
				'each read holds one page',
			);
			// Page k is written before page k+1 is read (n8n's v1 order runs the upper branch first; n8n numbers the
			// node runs in executionIndex).
			for (let k = 0; k + 1 < pages; k++)
				assert.ok(
					Number(writes[k].executionIndex) < Number(reads[k + 1].executionIndex),
					`page ${k + 1} was written before page ${k + 2} was read`,
				);
		},
	);

	suite.test(
		"test/e2e/workflows/incremental-import-static-data.json: each run imports only what is new, a ticket created in the watermark's millisecond too, exactly once",
		async () => {
			const { folder, sandbox, clock, e2e } = context();
			const workflow = findWorkflow(e2e, 'test/e2e/workflows/incremental-import-static-data.json');
			const imported = (run: PrintedRun) =>
				nodeOutputIfRan(run, 'Store New Tickets').map((item) => item.id);
			const first = await executeOk(folder, workflow);
			assert.equal(
				imported(first).length,
				sandbox.store.ticketCount,
				'the first run imports everything',
			);
			const watermark = String(onlyItem(first, 'Save Watermark').newestCreatedAt);
			const customer = { email: 'later@example.com' };
			const create = (subject: string) =>
				sandbox.store.createTicket({ subject, description: 'e2e', customer });
			// A ticket the service records later but within the watermark's millisecond, as a busy service does.
			clock.pin(Date.parse(watermark));
			const boundary = create('Same millisecond as the watermark');
			clock.release();
			assert.equal(boundary.created_at, watermark, 'the boundary ticket shares the watermark');
			const created = [boundary, create('New since the last import 1'), create('New since 2')];
			// n8n kept the watermark in the workflow's static data between the `n8n execute` runs.
			const before = lastSeq(sandbox);
			const second = await executeOk(folder, workflow);
			const createdIds = new Set(created.map((ticket) => ticket.id));
			const newestFirst = sandbox.store.listTickets().filter((t) => createdIds.has(t.id));
			assert.deepEqual(
				imported(second),
				newestFirst.map((t) => t.id),
				`second run: watermark ${JSON.stringify(nodeOutput(second, 'Read Watermark'))}, ${imported(second).length} tickets`,
			);
			// Created After stops at the first older ticket: the new ones fit on one page.
			assert.deepEqual(callsSince(sandbox, before), ['GET /tickets 200']);
			const third = await executeOk(folder, workflow);
			assert.deepEqual(imported(third), [], 'a run with nothing new imports nothing');
		},
	);

	// Examples added later get at least this: they run through real n8n without an error. `n8n execute` starts at a Manual
	// Trigger and cannot run Data Table nodes; the PostgreSQL examples need a database: `npm run test:sync` proves those.
	const covered = new Set([
		'examples/import-all-tickets.json',
		'examples/create-reply-update.json',
	]);
	for (const workflow of examples.filter(
		(w) =>
			hasNode(w, 'manualTrigger') &&
			!hasNode(w, 'dataTable') &&
			!hasNode(w, 'postgres') &&
			!covered.has(w.file),
	)) {
		suite.test(`${workflow.file} runs without an error`, async () => {
			await executeOk(context().folder, workflow);
		});
	}
}
