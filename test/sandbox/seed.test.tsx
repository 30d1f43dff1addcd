import { type Sandbox, startSandbox } from '../../sandbox';

describe('sandbox seed data', () => {
	const fixedNow = Date.parse('2025-06-01T12:00:00.000Z');
	const started: Sandbox[] = [];
	const start = async (seed: number, seedRandom?: number): Promise<Sandbox> => {
		const sandbox = await startSandbox({ seed, seedRandom, now: () => fixedNow });
		started.push(sandbox);
		return sandbox;
	};

	afterAll(async () => {
		await Promise.all(started.map((s) => s.stop()));
	});

	it('is deterministic for a given count, PRNG seed and clock', async () => {
		const a = await start(500);
		const b = await start(500);
		expect(b.store.listTickets()).toEqual(a.store.listTickets());
		expect(b.store.listCustomers()).toEqual(a.store.listCustomers());
		const c = await start(500, 2);
		expect(c.store.listTickets()).not.toEqual(a.store.listTickets());
	});

	it('creates count tickets, about count/5 customers and replies on every 7th ticket', async () => {
		const sandbox = await start(700);
		expect(sandbox.seeded).toEqual({ tickets: 700, customers: 140, replies: sandbox.store.replyCount });
		expect(sandbox.store.ticketCount).toBe(700);
		expect(sandbox.store.customerCount).toBe(140);
		for (const n of [7, 14, 700]) expect(sandbox.store.listReplies(`tkt_${n}`).length).toBeGreaterThanOrEqual(1);
		expect(sandbox.store.listReplies('tkt_8')).toEqual([]);
		expect((await start(1)).store.customerCount).toBe(1);
		expect((await start(0)).store.ticketCount).toBe(0);
	});

	it('mixes priorities, statuses, unicode text and custom fields', async () => {
		const tickets = (await start(300)).store.listTickets();
		expect(new Set(tickets.map((t) => t.priority))).toEqual(new Set(['low', 'normal', 'high', 'urgent']));
		expect(new Set(tickets.map((t) => t.status))).toEqual(new Set(['open', 'pending', 'on_hold', 'solved', 'closed']));
		const text = tickets.map((t) => `${t.subject} ${t.description} ${t.customer.name ?? ''}`).join('\n');
		for (const sample of ['Ünïcødé ✓', '日本語のチケット', '🎫', 'مرحبا']) expect(text).toContain(sample);
		expect(tickets.some((t) => Array.isArray(t.tags))).toBe(true);
		expect(tickets.some((t) => typeof t.external_ref === 'string')).toBe(true);
		expect(tickets.some((t) => t.customer.name === null)).toBe(true);
	});

	it('spreads timestamps over the past, with shared created_at groups and later updates', async () => {
		const tickets = (await start(300)).store.listTickets();
		for (const t of tickets) {
			expect(Date.parse(t.created_at)).toBeLessThan(fixedNow);
			expect(t.updated_at >= t.created_at).toBe(true);
			expect(Date.parse(t.updated_at)).toBeLessThan(fixedNow);
		}
		const groups = new Map<string, number>();
		for (const t of tickets) groups.set(t.created_at, (groups.get(t.created_at) ?? 0) + 1);
		expect([...groups.values()].filter((size) => size === 3)).toHaveLength(30);
		expect(tickets.filter((t) => t.updated_at > t.created_at).length).toBeGreaterThan(50);
	});

	it('uses ids that do not sort by creation as strings', async () => {
		const ids = (await start(20)).store.listTickets({ sort: 'asc' }).map((t) => t.id);
		expect([...ids].sort()).not.toEqual(ids);
	});
});
