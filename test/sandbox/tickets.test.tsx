import type { Ticket } from '../../sandbox';
import { API, errorOf, type ItemBody, TestClock } from './testClient';
import { useSandboxClient } from './useSandboxClient';

describe('sandbox tickets endpoints', () => {
	const clock = new TestClock();
	const { sandbox, client } = useSandboxClient({ now: clock.now });

	const validTicket = {
		subject: 'Printer on fire',
		description: 'It is really on fire',
		customer: { email: 'ada@example.com', name: 'Ada' },
	};
	const dataOf = (body: unknown): Ticket => (body as ItemBody<Ticket>).data;

	describe('POST /tickets', () => {
		it('creates a ticket: 201, defaults, customer, timestamps from the clock', async () => {
			const response = await client.post('/tickets', validTicket);
			expect(response.status).toBe(201);
			const ticket = dataOf(response.json);
			expect(ticket).toEqual({
				id: expect.stringMatching(/^tkt_[1-9][0-9]*$/),
				subject: 'Printer on fire',
				description: 'It is really on fire',
				priority: 'normal',
				status: 'open',
				customer: {
					id: expect.stringMatching(/^cus_[1-9][0-9]*$/),
					email: 'ada@example.com',
					name: 'Ada',
				},
				created_at: new Date(clock.ms).toISOString(),
				updated_at: new Date(clock.ms).toISOString(),
			});
			expect(sandbox.store.getTicket(ticket.id)).toEqual(ticket);
		});

		it('stores unknown fields and echoes them in create, get and list', async () => {
			const custom = {
				tags: ['a', 'ü'],
				external_ref: 'EXT-1',
				nested: { deep: [1, { x: null }] },
				__proto__x: 1,
			};
			const created = dataOf(
				(await client.post('/tickets', { ...validTicket, ...custom, priority: 'high' })).json,
			);
			expect(created).toMatchObject({ ...custom, priority: 'high' });
			expect(dataOf((await client.get(`/tickets/${created.id}`)).json)).toEqual(created);
			const list = (await client.get('/tickets?per_page=100')).json as { data: Ticket[] };
			expect(list.data.find((t) => t.id === created.id)).toEqual(created);
		});

		it('answers 422 validation_failed listing every bad field', async () => {
			const response = await client.post('/tickets', {
				subject: '  ',
				priority: 'critical',
				status: 'new',
				customer: { email: 'not-an-email', name: 5, phone: '1' },
			});
			expect(response.status).toBe(422);
			const error = errorOf(response);
			expect(error.code).toBe('validation_failed');
			expect(error.details).toEqual({
				fields: {
					subject: ['must not be blank'],
					description: ['is required'],
					priority: ['must be one of low, normal, high, urgent'],
					status: ['must be one of open, pending, on_hold, solved, closed'],
					'customer.email': ['must be a valid e-mail address'],
					'customer.name': ['must be a string'],
					'customer.phone': [expect.stringContaining('not accepted')],
				},
			});
		});

		it.each([
			[{ subject: 's', description: 'd' }, 'customer'],
			[{ subject: 's', description: 'd', customer: 'a@b.co' }, 'customer'],
			[{ subject: 's', description: 'd', customer: {} }, 'customer.email'],
			[{ subject: 1, description: 'd', customer: { email: 'a@b.co' } }, 'subject'],
			[{ subject: 's', description: null, customer: { email: 'a@b.co' } }, 'description'],
			[{ ...validTicket, id: 'tkt_1' }, 'id'],
			[{ ...validTicket, created_at: '2020-01-01T00:00:00Z' }, 'created_at'],
			[{ ...validTicket, updated_at: '2020-01-01T00:00:00Z' }, 'updated_at'],
		])('answers 422 for %j naming %s', async (body, field) => {
			const response = await client.post('/tickets', body);
			expect(response.status).toBe(422);
			expect(Object.keys((errorOf(response).details as { fields: object }).fields)).toContain(
				field,
			);
		});

		it('creates nothing when validation fails (no customer either)', async () => {
			const tickets = sandbox.store.ticketCount;
			const customers = sandbox.store.customerCount;
			await client.post('/tickets', { subject: 's', customer: { email: 'never@example.com' } });
			expect(sandbox.store.ticketCount).toBe(tickets);
			expect(sandbox.store.customerCount).toBe(customers);
			expect(sandbox.store.findCustomerByEmail('never@example.com')).toBeUndefined();
		});

		// PATCH reads its body through the same check (sandbox/api.tsx jsonBody).
		it('answers 415 without Content-Type: application/json, accepts a charset parameter', async () => {
			const body = JSON.stringify(validTicket);
			const missing = await client.request('POST', `${API}/tickets`, { body });
			expect(missing.status).toBe(415);
			expect(errorOf(missing).code).toBe('unsupported_media_type');
			const wrong = await client.request('POST', `${API}/tickets`, {
				body,
				headers: { 'content-type': 'text/plain' },
			});
			expect(wrong.status).toBe(415);
			const charset = await client.request('POST', `${API}/tickets`, {
				body,
				headers: { 'content-type': 'Application/JSON; charset=utf-8' },
			});
			expect(charset.status).toBe(201);
		});

		it.each([
			['not JSON', '{"subject":'],
			['an array', '[1,2]'],
			['a string', '"text"'],
			['null', 'null'],
			['empty', ''],
		])('answers 400 invalid_json for a body that is %s', async (_label, body) => {
			const response = await client.request('POST', `${API}/tickets`, {
				body,
				headers: { 'content-type': 'application/json' },
			});
			expect(response.status).toBe(400);
			expect(errorOf(response).code).toBe('invalid_json');
		});

		it('rejects query parameters on a create', async () => {
			const response = await client.request('POST', `${API}/tickets?notify=true`, {
				body: validTicket,
			});
			expect(response.status).toBe(400);
			expect(errorOf(response)).toMatchObject({
				code: 'invalid_parameter',
				details: { parameter: 'notify' },
			});
		});
	});

	describe('GET /tickets/{id}', () => {
		// A ticket read back, and a customer linked by e-mail: operations.test.tsx and createRecovery.test.tsx through the node.
		it.each(['tkt_999999', 'tkt_0', 'tkt_01', 'TKT_1', '1', 'cus_1', 'tkt_1x'])(
			'answers 404 not_found for id %s',
			async (id) => {
				const response = await client.get(`/tickets/${id}`);
				expect(response.status).toBe(404);
				const error = errorOf(response);
				expect(error.code).toBe('not_found');
				expect(error.message).toContain(`Ticket '${id}'`);
			},
		);

		it('answers 404 for unknown routes and trailing slashes', async () => {
			expect((await client.get('/widgets')).status).toBe(404);
			expect((await client.get('/tickets/')).status).toBe(404);
			expect((await client.get('/tickets/tkt_1/notes')).status).toBe(404);
			expect((await client.raw('GET', '/')).status).toBe(404);
		});
	});

	describe('PATCH /tickets/{id}', () => {
		it('updates given fields, keeps others, merges custom fields and sets updated_at', async () => {
			const created = dataOf(
				(await client.post('/tickets', { ...validTicket, tags: ['a'], keep: 1 })).json,
			);
			clock.advance(5_000);
			const response = await client.patch(`/tickets/${created.id}`, {
				status: 'solved',
				priority: 'urgent',
				tags: ['b'],
				added: null,
			});
			expect(response.status).toBe(200);
			const updated = dataOf(response.json);
			expect(updated).toEqual({
				...created,
				status: 'solved',
				priority: 'urgent',
				tags: ['b'],
				keep: 1,
				added: null,
				updated_at: new Date(clock.ms).toISOString(),
			});
			expect(sandbox.store.getTicket(created.id)).toEqual(updated);
		});

		it('re-links the ticket to another customer by e-mail, creating it if needed', async () => {
			const created = dataOf((await client.post('/tickets', validTicket)).json);
			const updated = dataOf(
				(
					await client.patch(`/tickets/${created.id}`, {
						customer: { email: 'new-owner@example.com', name: 'New' },
					})
				).json,
			);
			expect(updated.customer).toMatchObject({ email: 'new-owner@example.com', name: 'New' });
			expect(updated.customer.id).not.toBe(created.customer.id);
			expect(sandbox.store.findCustomerByEmail('new-owner@example.com')?.id).toBe(
				updated.customer.id,
			);
		});

		it.each([
			[{}, '_body'],
			[{ id: 'tkt_5' }, 'id'],
			[{ created_at: 'x' }, 'created_at'],
			[{ subject: '' }, 'subject'],
			[{ status: 'reopened' }, 'status'],
			[{ priority: 'HIGH' }, 'priority'],
			[{ customer: { name: 'no email' } }, 'customer.email'],
		])('answers 422 for %j naming %s', async (body, field) => {
			const created = dataOf((await client.post('/tickets', validTicket)).json);
			const response = await client.patch(`/tickets/${created.id}`, body);
			expect(response.status).toBe(422);
			expect(errorOf(response).details).toEqual({ fields: { [field]: expect.any(Array) } });
			expect(sandbox.store.getTicket(created.id)).toEqual(created);
		});

		it('answers 404 for an unknown ticket (before validating the body)', async () => {
			const response = await client.patch('/tickets/tkt_987654', {});
			expect(response.status).toBe(404);
		});
	});

	describe('methods', () => {
		it.each([
			['DELETE', '/tickets/tkt_1', 'GET, PATCH'],
			['PUT', '/tickets/tkt_1', 'GET, PATCH'],
			['DELETE', '/tickets', 'GET, POST'],
			['PATCH', '/tickets', 'GET, POST'],
			['DELETE', '/tickets/tkt_1/replies', 'GET, POST'],
			['PUT', '/customers', 'GET, POST'],
			['DELETE', '/customers/cus_1', 'GET, PATCH'],
			['POST', '/customers/cus_1', 'GET, PATCH'],
		])('answers 405 for %s %s with Allow: %s', async (method, path, allow) => {
			const response = await client.request(method, `${API}${path}`);
			expect(response.status).toBe(405);
			expect(response.headers.allow).toBe(allow);
			expect(errorOf(response).code).toBe('method_not_allowed');
		});
	});
});
