import type { Reply, Ticket } from '../../sandbox';
import { errorOf, type ListBody, TestClock } from './testClient';
import { useSandboxClient } from './useSandboxClient';

type SortKey = 'created_at' | 'updated_at';

/** Independent expectation of the keyset order: (timestamp, numeric id) ascending or descending. */
function expectedOrder(tickets: Ticket[], sortBy: SortKey, sort: 'asc' | 'desc'): string[] {
	const seq = (t: Ticket): number => Number(t.id.slice('tkt_'.length));
	const sorted = [...tickets].sort((a, b) =>
		a[sortBy] < b[sortBy] ? -1 : a[sortBy] > b[sortBy] ? 1 : seq(a) - seq(b),
	);
	return (sort === 'asc' ? sorted : sorted.reverse()).map((t) => t.id);
}

const ids = (items: Array<{ id: string }>): string[] => items.map((i) => i.id);

describe('sandbox lists and pagination (docs/api.md#paging)', () => {
	const clock = new TestClock();
	const { sandbox, client } = useSandboxClient({ seed: 300, now: clock.now });
	let seeded: Ticket[];
	beforeAll(() => (seeded = sandbox.store.listTickets()));

	const page = async (path: string): Promise<ListBody<Ticket>> => {
		const response = await client.get(path);
		if (response.status !== 200) throw new Error(`${path}: ${response.status} ${response.text}`);
		return response.json as ListBody<Ticket>;
	};

	const firstCursor = async (path: string): Promise<string> => {
		const cursor = (await page(path)).meta.next_cursor;
		if (cursor === null) throw new Error('expected a next_cursor');
		return cursor;
	};

	describe('per_page', () => {
		// 1 and 100 (the node's page sizes): getAll.paging.test.tsx, Limit 1 and 100, through the node.
		it('defaults to 25 and reports it in meta', async () => {
			const body = await page('/tickets');
			expect(body.data).toHaveLength(25);
			expect(body.meta).toEqual({ per_page: 25, has_more: true, next_cursor: expect.any(String) });
		});

		it.each(['0', '101', '-1', 'abc', '1.5', '', '1e2', '%205', '10000'])(
			'answers 400 invalid_parameter for per_page=%s',
			async (value) => {
				const response = await client.get(`/tickets?per_page=${value}`);
				expect(response.status).toBe(400);
				const error = errorOf(response);
				expect(error).toMatchObject({
					code: 'invalid_parameter',
					details: { parameter: 'per_page' },
				});
				expect(error.message).toContain('per_page');
			},
		);

		it('applies to replies and customers too', async () => {
			expect(errorOf(await client.get('/customers?per_page=101')).code).toBe('invalid_parameter');
			expect(errorOf(await client.get('/tickets/tkt_7/replies?per_page=0')).code).toBe(
				'invalid_parameter',
			);
		});
	});

	describe('query parameters', () => {
		it.each([
			['/tickets?page=2', 'page'],
			['/tickets?Per_Page=5', 'Per_Page'],
			['/tickets?limit=5', 'limit'],
			['/tickets?status=open&status=pending', 'status'],
			['/tickets?per_page=5&per_page=5', 'per_page'],
			['/tickets?status=reopened', 'status'],
			['/tickets?status=', 'status'],
			['/tickets?priority=critical', 'priority'],
			['/tickets?sort_by=priority', 'sort_by'],
			['/tickets?sort=DESC', 'sort'],
			['/customers?sort_by=created_at', 'sort_by'],
			['/tickets/tkt_1?expand=customer', 'expand'],
			['/tickets/tkt_1/replies?sort=asc', 'sort'],
			['/customers?email=a@example.com', 'email'],
		])('answers 400 invalid_parameter for %s naming %s', async (path, parameter) => {
			const response = await client.get(path);
			expect(response.status).toBe(400);
			expect(errorOf(response)).toMatchObject({
				code: 'invalid_parameter',
				details: { parameter },
			});
		});
	});

	describe('filters and sorting', () => {
		// Filters, and an empty page when nothing matches: getAll.paging.test.tsx and getAll.onePage.test.tsx through the node.
		it.each([
			['created_at', 'desc'],
			['created_at', 'asc'],
			['updated_at', 'desc'],
			['updated_at', 'asc'],
		] as const)('orders by %s %s with a stable tie-break', async (sortBy, sort) => {
			const traversed = await client.traverse<Ticket>(
				`/tickets?per_page=11&sort_by=${sortBy}&sort=${sort}`,
			);
			expect(ids(traversed)).toEqual(expectedOrder(seeded, sortBy, sort));
		});

		it('defaults to created_at descending; seeded tickets that share created_at come in one stable order whatever the page size', async () => {
			const createdAt = seeded.map((t) => t.created_at);
			expect(new Set(createdAt).size).toBeLessThan(createdAt.length);
			expect(ids(await client.traverse<Ticket>('/tickets?per_page=100'))).toEqual(
				expectedOrder(seeded, 'created_at', 'desc'),
			);
			expect(ids(await client.traverse<Ticket>('/tickets?per_page=3'))).toEqual(
				expectedOrder(seeded, 'created_at', 'desc'),
			);
		});
	});

	describe('traversal', () => {
		it('neither duplicates nor skips pre-existing tickets when tickets are created mid-traversal (desc)', async () => {
			const before = expectedOrder(sandbox.store.listTickets(), 'created_at', 'desc');
			const traversed = await client.traverse<Ticket>('/tickets?per_page=20', async (_p, index) => {
				if (index === 1 || index === 5) {
					clock.advance(1);
					for (let i = 0; i < 3; i++)
						await client.post('/tickets', {
							subject: `mid ${index}.${i}`,
							description: 'd',
							customer: { email: 'mid@example.com' },
						});
				}
			});
			// New tickets are newer than the cursor position, so a desc traversal does not reach them.
			expect(ids(traversed)).toEqual(before);
		});

		it('serves tickets created mid-traversal exactly once at the end of an ascending traversal', async () => {
			const before = expectedOrder(sandbox.store.listTickets(), 'created_at', 'asc');
			const created: string[] = [];
			const traversed = await client.traverse<Ticket>(
				'/tickets?per_page=50&sort=asc',
				async (_p, index) => {
					if (index === 0 || index === 3) {
						// Same millisecond for several new tickets: the sequence number orders them.
						for (let i = 0; i < 2; i++)
							created.push(
								sandbox.store.createTicket({
									subject: 'asc',
									description: 'd',
									customer: { email: 'asc@example.com' },
								}).id,
							);
					}
				},
			);
			expect(ids(traversed)).toEqual([...before, ...created]);
		});

		it('keeps tickets whose sort key did not change exactly once when others are updated mid-traversal', async () => {
			for (const sort of ['desc', 'asc'] as const) {
				const before = expectedOrder(sandbox.store.listTickets(), 'updated_at', sort);
				const updated = new Set<string>();
				const traversed = await client.traverse<Ticket>(
					`/tickets?per_page=25&sort_by=updated_at&sort=${sort}`,
					async (p, index) => {
						if (index === 2) {
							clock.advance(1000);
							// One already served, one not yet served.
							for (const id of [p.data[0].id, before[before.length - 10]]) {
								expect((await client.patch(`/tickets/${id}`, { status: 'pending' })).status).toBe(
									200,
								);
								updated.add(id);
							}
						}
					},
				);
				const unchanged = (list: string[]): string[] => list.filter((id) => !updated.has(id));
				expect(unchanged(ids(traversed))).toEqual(unchanged(before));
			}
		});
	});

	describe('cursors', () => {
		it.each([
			['/tickets?per_page=5&status=open', '/tickets?per_page=5&status=pending'],
			['/tickets?per_page=5&status=open', '/tickets?per_page=5'],
			['/tickets?per_page=5', '/tickets?per_page=6'],
			['/tickets?per_page=5', '/tickets?per_page=5&sort=asc'],
			['/tickets?per_page=5', '/tickets?per_page=5&sort_by=updated_at'],
			['/tickets?per_page=5', '/customers?per_page=5'],
			['/customers?per_page=5', '/tickets/tkt_7/replies?per_page=5'],
		])('answer 400 cursor_mismatch when a cursor of %s is sent with %s', async (origin, reuse) => {
			const cursor = await firstCursor(origin);
			const response = await client.get(`${reuse}&cursor=${cursor}`);
			expect(response.status).toBe(400);
			const error = errorOf(response);
			expect(error.code).toBe('cursor_mismatch');
			expect(error.message).toContain('belongs to a different query');
		});

		it('are bound to the ticket of a reply list', async () => {
			const a = sandbox.store.createTicket({
				subject: 'a',
				description: 'd',
				customer: { email: 'a-replies@example.com' },
			});
			const b = sandbox.store.createTicket({
				subject: 'b',
				description: 'd',
				customer: { email: 'b-replies@example.com' },
			});
			for (let i = 0; i < 3; i++) sandbox.store.createReply(a.id, { body: `r${i}` });
			const cursor =
				((await client.get(`/tickets/${a.id}/replies?per_page=1`)).json as ListBody<Reply>).meta
					.next_cursor ?? '';
			expect(
				(await client.get(`/tickets/${a.id}/replies?per_page=1&cursor=${cursor}`)).status,
			).toBe(200);
			expect(
				errorOf(await client.get(`/tickets/${b.id}/replies?per_page=1&cursor=${cursor}`)).code,
			).toBe('cursor_mismatch');
		});

		it('answer 400 invalid_cursor when tampered with, truncated, forged, garbage or empty', async () => {
			const cursor = await firstCursor('/tickets?per_page=5');
			const middle = Math.floor(cursor.length / 2);
			const flipped =
				cursor.slice(0, middle) + (cursor[middle] === 'A' ? 'B' : 'A') + cursor.slice(middle + 1);
			const forged = Buffer.from(
				JSON.stringify({
					v: 1,
					q: '/tickets?per_page=5&sort_by=created_at&sort=desc',
					k: 0,
					s: 1,
				}) + 'x'.repeat(16),
			).toString('base64url');
			for (const bad of [flipped, cursor.slice(0, -3), forged, 'garbage', 'not%20base64!', '']) {
				const response = await client.get(`/tickets?per_page=5&cursor=${bad}`);
				expect(response.status).toBe(400);
				expect(errorOf(response)).toMatchObject({
					code: 'invalid_cursor',
					details: { parameter: 'cursor' },
				});
			}
		});
	});

	describe('a second sandbox of 10 tickets', () => {
		const small = useSandboxClient({ seed: 10 });

		it('is exact about has_more at every boundary', async () => {
			const sizes = async (perPage: number): Promise<Array<[number, boolean]>> => {
				const result: Array<[number, boolean]> = [];
				await small.client.traverse<Ticket>(
					`/tickets?per_page=${perPage}`,
					(p) => void result.push([p.data.length, p.meta.has_more]),
				);
				return result;
			};
			expect(await sizes(5)).toEqual([
				[5, true],
				[5, false],
			]);
			expect(await sizes(10)).toEqual([[10, false]]);
			expect(await sizes(3)).toEqual([
				[3, true],
				[3, true],
				[3, true],
				[1, false],
			]);
			expect(await sizes(11)).toEqual([[10, false]]);
		});

		it('refuses the cursors of the first one as invalid_cursor (a restart invalidates cursors)', async () => {
			const cursor = await firstCursor('/tickets?per_page=5');
			expect(errorOf(await small.client.get(`/tickets?per_page=5&cursor=${cursor}`)).code).toBe(
				'invalid_cursor',
			);
		});
	});
});
