import type { Ticket } from '../../sandbox';
import { useSandboxClient } from './useSandboxClient';

/**
 * Sanity run of the keyset pagination at scale: 100,000 tickets traversed at per_page=100
 * over real HTTP. No timing assertion (that would be flaky); the duration is reported.
 */
describe('sandbox at scale', () => {
	const { sandbox, client } = useSandboxClient({ seed: 100_000 });

	it('traverses 100,000 tickets in 1,000 pages, each exactly once', async () => {
		const started = Date.now();
		const seen = new Set<string>();
		let pages = 0;
		let previous = '';
		let outOfOrder = 0;
		await client.traverse<Ticket>('/tickets?per_page=100', (page) => {
			pages++;
			for (const ticket of page.data) {
				seen.add(ticket.id);
				// created_at never increases along a desc traversal (counted, not expect()ed: 100k expects are slow)
				if (previous !== '' && ticket.created_at > previous) outOfOrder++;
				previous = ticket.created_at;
			}
		});
		expect(outOfOrder).toBe(0);
		expect(pages).toBe(1000);
		expect(seen.size).toBe(100_000);
		expect(sandbox.countCalls({ pathname: '/api/v1/external/tickets', status: 200 })).toBe(1000);
		process.stdout.write(`sandbox: 100k-ticket traversal took ${Date.now() - started} ms\n`);
	});
});
