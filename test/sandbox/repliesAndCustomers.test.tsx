import type { Customer, Reply, Ticket } from '../../sandbox';
import { errorOf, type ItemBody, TestClock } from './testClient';
import { useSandboxClient } from './useSandboxClient';

describe('sandbox replies and customers endpoints', () => {
	const clock = new TestClock();
	const { sandbox, client } = useSandboxClient({ now: clock.now });
	let ticket: Ticket;

	beforeAll(async () => {
		ticket = sandbox.store.createTicket({
			subject: 's',
			description: 'd',
			customer: { email: 'owner@example.com', name: 'Owner' },
		});
	});

	describe('replies', () => {
		// Creating and listing replies (404 on an unknown ticket too), getting and listing customers: operations.test.tsx,
		// getAll.onePage.test.tsx and errorMessages.test.tsx through the node.
		it("moves the ticket's updated_at to the reply's created_at (and its place in the updated_at order), nothing else", async () => {
			const other = sandbox.store.createTicket({
				subject: 'Other',
				description: 'd',
				customer: { email: 'other@example.com' },
			});
			const before = sandbox.store.getTicket(ticket.id);
			clock.advance(1000);
			const reply = (
				(await client.post(`/tickets/${ticket.id}/replies`, { body: 'third' }))
					.json as ItemBody<Reply>
			).data;
			expect(reply.created_at).not.toBe(before?.updated_at);
			expect(sandbox.store.getTicket(ticket.id)).toEqual({
				...before,
				updated_at: reply.created_at,
			});
			expect(
				sandbox.store
					.listTickets({ sortBy: 'updated_at', sort: 'desc' })
					.map((t) => t.id)
					.slice(0, 2),
			).toEqual([ticket.id, other.id]);
		});

		it('with store.replyMovesTicket off (as the sync proof runs it), a reply leaves the ticket as it was, still sending reply.created', async () => {
			const events: string[] = [];
			sandbox.store.onEvent((event) => events.push(event));
			sandbox.store.replyMovesTicket = false;
			try {
				const before = sandbox.store.getTicket(ticket.id);
				const order = sandbox.store
					.listTickets({ sortBy: 'updated_at', sort: 'desc' })
					.map((t) => t.id);
				clock.advance(1000);
				const reply = (
					(await client.post(`/tickets/${ticket.id}/replies`, { body: 'fourth' }))
						.json as ItemBody<Reply>
				).data;
				expect(reply.created_at).toBe(new Date(clock.ms).toISOString());
				expect((await client.get(`/tickets/${ticket.id}`)).json).toEqual({ data: before });
				expect(
					sandbox.store.listTickets({ sortBy: 'updated_at', sort: 'desc' }).map((t) => t.id),
				).toEqual(order);
				expect(events).toEqual(['reply.created']);
			} finally {
				sandbox.store.replyMovesTicket = true;
			}
		});

		it.each([
			[{}, 'body'],
			[{ body: '' }, 'body'],
			[{ body: 42 }, 'body'],
			[{ body: 'x', ticket_id: 'tkt_2' }, 'ticket_id'],
			[{ body: 'x', id: 'rep_1' }, 'id'],
		])('answers 422 for %j naming %s', async (body, field) => {
			const response = await client.post(`/tickets/${ticket.id}/replies`, body);
			expect(response.status).toBe(422);
			expect(errorOf(response).details).toEqual({ fields: { [field]: expect.any(Array) } });
		});
	});

	describe('customers', () => {
		it('creates a customer: 201 with id, email, name, timestamps and custom fields', async () => {
			const response = await client.post('/customers', {
				email: 'zoe@example.com',
				name: 'Zoë Ünïcødé',
				plan: 'pro',
			});
			expect(response.status).toBe(201);
			expect((response.json as ItemBody<Customer>).data).toEqual({
				id: expect.stringMatching(/^cus_[1-9][0-9]*$/),
				email: 'zoe@example.com',
				name: 'Zoë Ünïcødé',
				created_at: new Date(clock.ms).toISOString(),
				updated_at: new Date(clock.ms).toISOString(),
				plan: 'pro',
			});
			expect(
				(
					(await client.post('/customers', { email: 'noname@example.com' }))
						.json as ItemBody<Customer>
				).data.name,
			).toBeNull();
		});

		it('answers 422 when the e-mail is taken (case-insensitive), missing or invalid', async () => {
			const taken = await client.post('/customers', { email: 'ZOE@example.com' });
			expect(taken.status).toBe(422);
			expect(errorOf(taken).details).toEqual({
				fields: { email: [expect.stringMatching(/already used by customer cus_/)] },
			});
			expect(errorOf(await client.post('/customers', { name: 'x' })).details).toEqual({
				fields: { email: ['is required'] },
			});
			expect(errorOf(await client.post('/customers', { email: 'a b@c.d' })).details).toEqual({
				fields: { email: ['must be a valid e-mail address'] },
			});
			expect(
				errorOf(await client.post('/customers', { email: 'ok@example.com', id: 'cus_1' })).details,
			).toEqual({ fields: { id: [expect.any(String)] } });
		});

		it('updates name, email and custom fields; tickets show the new values', async () => {
			const owner = ticket.customer;
			clock.advance(2000);
			const response = await client.patch(`/customers/${owner.id}`, {
				name: 'Renamed',
				email: 'renamed@example.com',
				vip: true,
			});
			expect(response.status).toBe(200);
			const updated = (response.json as ItemBody<Customer>).data;
			expect(updated).toMatchObject({
				id: owner.id,
				name: 'Renamed',
				email: 'renamed@example.com',
				vip: true,
				updated_at: new Date(clock.ms).toISOString(),
			});
			expect(sandbox.store.getTicket(ticket.id)?.customer).toEqual({
				id: owner.id,
				email: 'renamed@example.com',
				name: 'Renamed',
			});
			// The old address is free again, the new one is taken.
			expect((await client.post('/customers', { email: 'owner@example.com' })).status).toBe(201);
			expect((await client.post('/customers', { email: 'renamed@example.com' })).status).toBe(422);
		});

		it('lets a customer keep its own e-mail in a PATCH, but not take another one', async () => {
			const a = sandbox.store.createCustomer({ email: 'a@example.com' });
			sandbox.store.createCustomer({ email: 'b@example.com' });
			expect((await client.patch(`/customers/${a.id}`, { email: 'A@example.com' })).status).toBe(
				200,
			);
			expect((await client.patch(`/customers/${a.id}`, { email: 'b@example.com' })).status).toBe(
				422,
			);
		});

		it.each([
			[{}, '_body'],
			[{ email: 'nope' }, 'email'],
			[{ name: 7 }, 'name'],
			[{ updated_at: 'x' }, 'updated_at'],
		])('answers 422 for PATCH %j naming %s', async (body, field) => {
			const customer = sandbox.store.createCustomer({ email: `patch-${field}@example.com` });
			const response = await client.patch(`/customers/${customer.id}`, body);
			expect(response.status).toBe(422);
			expect(errorOf(response).details).toEqual({ fields: { [field]: expect.any(Array) } });
		});
	});
});
