import type { ListBody } from './testClient';
import { useSandboxClient } from './useSandboxClient';

/** The sandbox's answers a real service might give instead of the spec's (responseShape.tsx, docs/api.md#answers). */
describe('sandbox response shapes', () => {
	const { sandbox, client } = useSandboxClient({ seed: 30 });
	afterEach(() => sandbox.setResponseShape({}));

	const meta = async (path: string) => ((await client.get(path)).json as ListBody<unknown>).meta as unknown as Record<string, unknown>;

	it.each([
		['null', { next_cursor: null }],
		['empty', { next_cursor: '' }],
		['missing', {}],
	] as const)('hasMoreWithoutCursor %s: a page with more to come gives no usable next_cursor', async (lost, cursor) => {
		sandbox.setResponseShape({ hasMoreWithoutCursor: lost });
		expect(await meta('/tickets?per_page=10')).toEqual({ per_page: 10, has_more: true, ...cursor });
		// The last page is the spec's: has_more false, next_cursor null.
		expect(await meta('/tickets?per_page=100')).toEqual({ per_page: 100, has_more: false, next_cursor: null });
	});

	it('hasMoreWithoutCursor with hasMoreAsText: has_more "true" and no cursor', async () => {
		sandbox.setResponseShape({ hasMoreWithoutCursor: 'null', hasMoreAsText: true });
		expect(await meta('/tickets?per_page=10')).toEqual({ per_page: 10, has_more: 'true', next_cursor: null });
	});

	it.each([404, 410, 422] as const)('rejectedCursorStatus %i: a rejected cursor gets that status and the usual body; other errors keep theirs', async (status) => {
		sandbox.setResponseShape({ rejectedCursorStatus: status });
		const rejected = await client.get('/tickets?cursor=not-a-cursor');
		expect(rejected.status).toBe(status);
		expect(rejected.json).toMatchObject({ error: { code: 'invalid_cursor' } });
		const next = (await meta('/tickets?per_page=10')).next_cursor as string;
		const mismatch = await client.get(`/tickets?per_page=20&cursor=${next}`);
		expect([mismatch.status, (mismatch.json as { error: { code: string } }).error.code]).toEqual([status, 'cursor_mismatch']);
		expect((await client.get('/tickets/tkt_999')).status).toBe(404);
		expect((await client.get('/tickets?per_page=0')).status).toBe(400);
	});
});
