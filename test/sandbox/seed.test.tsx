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

	it('is deterministic for a count, PRNG seed and clock', async () => {
		const a = await start(300);
		const b = await start(300);
		expect(b.store.listTickets()).toEqual(a.store.listTickets());
		expect(b.store.listCustomers()).toEqual(a.store.listCustomers());
		expect((await start(300, 2)).store.listTickets()).not.toEqual(a.store.listTickets());
	});

	it('has what ordering and sync tests lean on: created_at ties, later updates in the past, replies on every 7th ticket, ids that do not sort as strings', async () => {
		const sandbox = await start(300);
		const tickets = sandbox.store.listTickets({ sort: 'asc' });
		expect([sandbox.store.ticketCount, sandbox.store.customerCount]).toEqual([300, 60]);
		for (const t of tickets)
			expect([t.created_at <= t.updated_at, Date.parse(t.updated_at) < fixedNow]).toEqual([
				true,
				true,
			]);
		const groups = new Map<string, number>();
		for (const t of tickets) groups.set(t.created_at, (groups.get(t.created_at) ?? 0) + 1);
		expect([...groups.values()].filter((size) => size === 3)).toHaveLength(30);
		expect(tickets.filter((t) => t.updated_at > t.created_at).length).toBeGreaterThan(50);
		for (const n of [7, 14, 294])
			expect(sandbox.store.listReplies(`tkt_${n}`).length).toBeGreaterThanOrEqual(1);
		expect(sandbox.store.listReplies('tkt_8')).toEqual([]);
		const ids = tickets.map((t) => t.id);
		expect([...ids].sort()).not.toEqual(ids);
	});
});
