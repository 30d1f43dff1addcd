import { waitUntil } from '../harness/wait';
import { FaultInjector } from '../../sandbox/faults';
import { startSandbox } from '../../sandbox';
import { errorOf, TestClient } from './testClient';
import { useSandboxClient } from './useSandboxClient';

describe('sandbox fault injection', () => {
	const { sandbox, client } = useSandboxClient({ seed: 5 });
	const newTicket = { subject: 's', description: 'd', customer: { email: 'fault@example.com' } };

	afterEach(() => sandbox.setFaults({}));

	it('answers 429 rate_limited with Retry-After in seconds', async () => {
		sandbox.setFaults({ rate429: 1, retryAfter: 7 });
		const response = await client.get('/tickets');
		expect(response.status).toBe(429);
		expect(response.headers['retry-after']).toBe('7');
		expect(errorOf(response)).toMatchObject({ code: 'rate_limited', details: { retry_after: '7' } });
	});

	it('defaults Retry-After to 1 second', async () => {
		sandbox.setFaults({ rate429: 1 });
		expect((await client.get('/tickets')).headers['retry-after']).toBe('1');
	});

	it('can send Retry-After as an HTTP date in the future', async () => {
		sandbox.setFaults({ rate429: 1, retryAfter: 'http-date' });
		const response = await client.get('/tickets');
		const header = response.headers['retry-after'] ?? '';
		expect(header).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
		const waitMs = Date.parse(header) - Date.now();
		expect(waitMs).toBeGreaterThan(0);
		expect(waitMs).toBeLessThanOrEqual(2000);
	});

	it('answers 503 unavailable with Retry-After', async () => {
		sandbox.setFaults({ rate503: 1, retryAfter: 2 });
		const response = await client.get('/tickets');
		expect(response.status).toBe(503);
		expect(response.headers['retry-after']).toBe('2');
		expect(errorOf(response).code).toBe('unavailable');
	});

	it('does not process a faulted POST or PATCH: nothing is created or changed', async () => {
		const tickets = sandbox.store.ticketCount;
		const customers = sandbox.store.customerCount;
		const target = sandbox.store.listTickets()[0];
		for (const fault of [{ rate429: 1 }, { rate503: 1 }]) {
			sandbox.setFaults(fault);
			expect([429, 503]).toContain((await client.post('/tickets', newTicket)).status);
			expect([429, 503]).toContain((await client.post(`/tickets/${target.id}/replies`, { body: 'x' })).status);
			expect([429, 503]).toContain((await client.patch(`/tickets/${target.id}`, { status: 'closed' })).status);
		}
		expect(sandbox.store.ticketCount).toBe(tickets);
		expect(sandbox.store.customerCount).toBe(customers);
		expect(sandbox.store.listReplies(target.id)).toEqual([]);
		expect(sandbox.store.getTicket(target.id)).toEqual(target);
		sandbox.setFaults({});
		expect((await client.post('/tickets', newTicket)).status).toBe(201);
	});

	it('records faults in the request log', async () => {
		sandbox.clearLog();
		sandbox.setFaults({ next: [429, 503] });
		await client.get('/tickets');
		await client.get('/tickets');
		await client.get('/tickets');
		expect(sandbox.log.map((e) => [e.status, e.fault])).toEqual([
			[429, 429],
			[503, 503],
			[200, undefined],
		]);
		expect(sandbox.countCalls({ status: 429 })).toBe(1);
	});

	it('checks authentication before injecting faults', async () => {
		sandbox.setFaults({ rate429: 1 });
		expect((await client.get('/tickets', { apiKey: 'wrong' })).status).toBe(401);
	});

	it('draws faults from a seeded PRNG: the same settings replay the same sequence', async () => {
		const run = async (): Promise<number[]> => {
			sandbox.setFaults({ rate429: 0.3, rate503: 0.2, seed: 42 });
			const statuses: number[] = [];
			for (let i = 0; i < 40; i++) statuses.push((await client.get('/tickets?per_page=1')).status);
			return statuses;
		};
		const first = await run();
		expect(await run()).toEqual(first);
		expect(new Set(first)).toEqual(new Set([200, 429, 503]));
	});

	it('adds latency, fixed or in a range, switchable at run time', async () => {
		sandbox.setFaults({ latencyMs: 120 });
		let started = Date.now();
		expect((await client.get('/tickets?per_page=1')).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(100);

		sandbox.setFaults({ latencyMs: [30, 60] });
		started = Date.now();
		await client.get('/tickets?per_page=1');
		expect(Date.now() - started).toBeGreaterThanOrEqual(25);

		// Switched off: no upper time bound (a loaded machine is slow anyway), but no latency is set.
		sandbox.setFaults({});
		expect(sandbox.getFaults()).toEqual({});
		expect((await client.get('/tickets?per_page=1')).status).toBe(200);
	});

	it('rate limit: a burst passes, the next request is refused 429 with Retry-After and creates nothing', async () => {
		// One token per 100 s: the fourth request is refused however slow the machine is.
		sandbox.setFaults({ rateLimit: { perSecond: 0.01, burst: 3 } });
		const before = sandbox.store.ticketCount;
		const statuses: number[] = [];
		for (let i = 0; i < 3; i++) statuses.push((await client.post('/tickets', newTicket)).status);
		const refused = await client.post('/tickets', newTicket);
		expect(statuses).toEqual([201, 201, 201]);
		expect(refused.status).toBe(429);
		expect(Number(refused.headers['retry-after'])).toBeGreaterThan(90);
		expect(errorOf(refused)).toMatchObject({ code: 'rate_limited' });
		expect(sandbox.store.ticketCount).toBe(before + 3);
		expect(sandbox.log.at(-1)?.fault).toBe(429);
		expect(sandbox.getFaults()).toEqual({ rateLimit: { perSecond: 0.01, burst: 3 } });
	});

	it('rate limit: Retry-After is the whole seconds until the next token, and tokens come back', () => {
		let now = 0;
		const faults = new FaultInjector(() => now);
		faults.set({ rateLimit: { perSecond: 1, burst: 3 } });
		expect([faults.throttle(), faults.throttle(), faults.throttle()]).toEqual([undefined, undefined, undefined]);
		expect(faults.throttle()?.headers).toEqual({ 'retry-after': '1' });
		now += 1000;
		expect(faults.throttle()).toBeUndefined();
		expect(faults.throttle()?.status).toBe(429);
		now += 3000;
		expect([faults.throttle(), faults.throttle(), faults.throttle(), faults.throttle()?.status]).toEqual([undefined, undefined, undefined, 429]);
	});

	it('rate limit: Retry-After can be a fixed number of seconds, e.g. 0', async () => {
		// One token per 100 s: the second request is refused however slow the machine.
		sandbox.setFaults({ rateLimit: { perSecond: 0.01, burst: 1, retryAfter: 0 } });
		expect((await client.get('/tickets?per_page=1')).status).toBe(200);
		const refused = await client.get('/tickets?per_page=1');
		expect(refused.status).toBe(429);
		expect(refused.headers['retry-after']).toBe('0');
	});

	it('refuses without Retry-After (rate503Bare): 503, nothing processed', async () => {
		const before = sandbox.store.ticketCount;
		sandbox.setFaults({ rate503Bare: 1 });
		const response = await client.post('/tickets', newTicket);
		expect(response.status).toBe(503);
		expect(response.headers['retry-after']).toBeUndefined();
		expect(errorOf(response).code).toBe('unavailable');
		expect(sandbox.store.ticketCount).toBe(before);
		expect(sandbox.log.at(-1)?.fault).toBe('503-bare');
	});

	it('processes a write, then answers 503 without Retry-After (processed-503): the ticket exists', async () => {
		const before = sandbox.store.ticketCount;
		sandbox.setFaults({ next: ['processed-503'] });
		const response = await client.post('/tickets', { ...newTicket, subject: 'processed then 503' });
		expect(response.status).toBe(503);
		expect(response.headers['retry-after']).toBeUndefined();
		expect(sandbox.store.ticketCount).toBe(before + 1);
		expect(sandbox.store.listTickets()[0].subject).toBe('processed then 503');
		expect(sandbox.log.at(-1)).toMatchObject({ fault: 'processed-503', status: 503 });
	});

	it('processes a write, then drops the connection without an answer (processed-drop): the reply exists', async () => {
		const target = sandbox.store.listTickets()[0];
		sandbox.setFaults({ next: ['processed-drop'] });
		await expect(client.post(`/tickets/${target.id}/replies`, { body: 'dropped after processing' })).rejects.toThrow(/socket hang up|ECONNRESET/);
		expect(sandbox.store.listReplies(target.id)[0].body).toBe('dropped after processing');
		expect(sandbox.log.at(-1)?.fault).toBe('processed-drop');
	});

	it('draws processed faults for writes only: a read is answered', async () => {
		sandbox.setFaults({ rateProcessed503: 0.5, rateProcessedDrop: 0.5 });
		sandbox.clearLog();
		for (let i = 0; i < 5; i++) expect((await client.get('/tickets?per_page=1')).status).toBe(200);
		expect(sandbox.log.every((e) => e.fault === undefined)).toBe(true);
	});

	it('rejects invalid fault settings', () => {
		expect(() => sandbox.setFaults({ rateLimit: { perSecond: 0 } })).toThrow(RangeError);
		expect(() => sandbox.setFaults({ rateLimit: { perSecond: 5, burst: 0 } })).toThrow(RangeError);
		expect(() => sandbox.setFaults({ rate429: 1.5 })).toThrow(RangeError);
		expect(() => sandbox.setFaults({ rate429: 0.6, rate503: 0.6 })).toThrow(RangeError);
		expect(() => sandbox.setFaults({ latencyMs: [50, 10] })).toThrow(RangeError);
		expect(() => sandbox.setFaults({ retryAfter: -1 })).toThrow(RangeError);
		expect(() => sandbox.setFaults({ rate429: 0.5, rate503Bare: 0.3, rateProcessedDrop: 0.3 })).toThrow(RangeError);
		expect(() => sandbox.setFaults({ rateLimit: { perSecond: 5, retryAfter: -1 } })).toThrow(RangeError);
		expect(() => sandbox.setFaults({ next: ['processed' as never] })).toThrow(RangeError);
	});

	it('stops promptly while a delayed request is pending, leaving no timer behind', async () => {
		const slow = await startSandbox();
		const slowClient = new TestClient(slow.baseUrl);
		slow.setFaults({ latencyMs: 30_000 });
		const pending = slowClient.get('/tickets').then(
			(r) => r.status,
			(error: Error) => error.message,
		);
		await waitUntil('the request to reach the sandbox', () => (slow.log.length > 0 ? true : undefined), 30_000, { intervalMs: 5 });
		const started = Date.now();
		await slow.stop();
		// Far below the 30 s latency: stop() cut the delay short instead of waiting for it.
		expect(Date.now() - started).toBeLessThan(15_000);
		expect(await pending).toMatch(/socket hang up|ECONNRESET/);
		slowClient.close();
	});
});

describe('sandbox faults on a service whose clock is off', () => {
	// The service's clock is 90 s ahead of the machine's; the client signs on the service's clock.
	const now = () => Date.now() + 90_000;
	const { sandbox, client } = useSandboxClient({ now });

	it('every answer carries the service clock in Date, and a rate limit names its date on that clock', async () => {
		// One token per 100 s: the next one comes 100 s later on the service's clock.
		sandbox.setFaults({ rateLimit: { perSecond: 0.01, burst: 1, retryAfter: 'http-date' } });
		const ok = await client.get('/tickets?per_page=1');
		const refused = await client.get('/tickets?per_page=1');
		for (const response of [ok, refused]) {
			// Whole seconds: within 2 s of the service clock, and not the machine's.
			expect(Math.abs(Date.parse(response.headers.date ?? '') - now())).toBeLessThanOrEqual(2000);
		}
		expect(refused.status).toBe(429);
		const wait = Date.parse(refused.headers['retry-after'] ?? '') - Date.parse(refused.headers.date ?? '');
		// Both headers have whole seconds: the date is rounded up, Date down.
		expect(wait).toBeGreaterThanOrEqual(100_000);
		expect(wait).toBeLessThanOrEqual(101_000);
	});
});
