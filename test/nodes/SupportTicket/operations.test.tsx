import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../../harness';
import { byId, runNode } from '../supportTicketNode';

const { sandbox, credentials } = useSandbox({ seed: 40 });

async function run(parameters: IDataObject) {
	const result = await runNode(parameters, credentials);
	if (result.error) throw result.error;
	return result.output('Node').map((item) => item.json);
}

it('ticket: create → get → update, and the service holds what was sent', async () => {
	const [created] = await run({
		resource: 'ticket',
		operation: 'create',
		subject: 'Cannot log in ✓',
		description: 'Since this morning',
		customerEmail: 'new.person@example.com',
		additionalFields: {
			customerName: 'New Person',
			priority: 'high',
			customFieldsJson: '{"tags":["vip"],"external_ref":"CRM-42"}',
		},
	});
	expect(created).toMatchObject({
		subject: 'Cannot log in ✓',
		priority: 'high',
		tags: ['vip'],
		external_ref: 'CRM-42',
	});
	const id = created.id as string;
	expect(sandbox.store.getTicket(id)).toMatchObject({
		customer: { email: 'new.person@example.com', name: 'New Person' },
	});

	const [fetched] = await run({ resource: 'ticket', operation: 'get', ticketId: byId(id) });
	expect(fetched).toEqual(created);

	const [updated] = await run({
		resource: 'ticket',
		operation: 'update',
		ticketId: byId(id),
		updateFields: { status: '__custom__', customStatus: 'solved', subject: 'Fixed' },
	});
	expect(updated).toMatchObject({ id, status: 'solved', subject: 'Fixed' });
	expect(sandbox.store.getTicket(id)).toMatchObject({ status: 'solved', subject: 'Fixed' });
});

it('reply: create, then get many lists it', async () => {
	const ticket = sandbox.store.listTickets()[0];
	const [reply] = await run({
		resource: 'reply',
		operation: 'create',
		ticketId: byId(ticket.id),
		body: 'On it 🛠',
	});
	expect(reply).toMatchObject({ body: 'On it 🛠' });
	const replies = await run({
		resource: 'reply',
		operation: 'getAll',
		ticketId: byId(ticket.id),
		returnAll: true,
	});
	expect(replies.map((r) => r.id)).toContain(reply.id);
	expect(replies).toHaveLength(sandbox.store.listReplies(ticket.id).length);
});

it('customer: create → get → update → get many', async () => {
	const [customer] = await run({
		resource: 'customer',
		operation: 'create',
		email: 'zoe@example.com',
		additionalFields: { name: 'Zoë', customFieldsJson: '{"plan":"gold"}' },
	});
	expect(customer).toMatchObject({ email: 'zoe@example.com', name: 'Zoë', plan: 'gold' });
	const id = customer.id as string;
	const [fetched] = await run({ resource: 'customer', operation: 'get', customerId: byId(id) });
	expect(fetched).toEqual(customer);
	const [updated] = await run({
		resource: 'customer',
		operation: 'update',
		customerId: byId(id),
		updateFields: { name: 'Zoë B.' },
	});
	expect(updated).toMatchObject({ id, name: 'Zoë B.' });
	expect(sandbox.store.getCustomer(id)).toMatchObject({ name: 'Zoë B.' });
	const all = await run({ resource: 'customer', operation: 'getAll', returnAll: true });
	expect(all).toHaveLength(sandbox.store.listCustomers().length);
});

it('ticket Get Many filters by the Custom value: priority "__custom__" + Custom Priority "urgent" sends priority=urgent', async () => {
	const tickets = await run({
		resource: 'ticket',
		operation: 'getAll',
		returnAll: true,
		filters: { priority: '__custom__', customPriority: ' urgent ', status: 'open' },
	});
	expect(sandbox.log.map((e) => e.path)).toEqual([
		'/api/v1/external/tickets?per_page=100&status=open&priority=urgent',
	]);
	expect(tickets.map((t) => t.id)).toEqual(
		sandbox.store
			.listTickets()
			.filter((t) => t.priority === 'urgent' && t.status === 'open')
			.map((t) => t.id),
	);
});
