import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, itemsWorkflow, runWorkflow, useSandbox } from '../../harness';
import type { Sandbox } from '../../../sandbox';

// No item fails for being rate-limited, whatever form Retry-After takes: 0 (no wait below the backoff), or an HTTP date
// on a service clock off from this machine's (read against the answer's Date header).
const NODE = 'n8n-nodes-support-ticket.supportTicket';
const ITEMS = 60;

async function createAgainstLimit(sandbox: Sandbox, rateLimit: IDataObject) {
	const tag = `limit-${Date.now().toString(36)}`;
	const items = Array.from({ length: ITEMS }, (_, i) => ({ subject: `${tag} #${i}` }));
	sandbox.setFaults({ rateLimit: { perSecond: 10, ...rateLimit } });
	const result = await runWorkflow(
		itemsWorkflow(items, NODE, { resource: 'ticket', operation: 'create', subject: '={{ $json.subject }}', description: 'D', customerEmail: 'limit@example.com' }, { continueOnFail: true }),
		{ supportTicketApi: credentialsFor(sandbox) },
	);
	expect(result.error).toBeUndefined();
	const output = result.output('Node');
	const failed = output.filter((o) => o.json.error !== undefined).map((o) => String(o.json.error));
	const created = sandbox.store.listTickets().filter((t) => t.subject.startsWith(tag)).length;
	return { failed, created, refused: sandbox.log.filter((e) => e.fault === 429).length };
}

describe('60 creates against 10 requests/s', () => {
	describe('on a service with the same clock', () => {
		const { sandbox } = useSandbox();
		it('"Retry-After: 0": every item is created once, no item fails', async () => {
			const { failed, created } = await createAgainstLimit(sandbox, { retryAfter: 0 });
			expect(failed).toEqual([]);
			expect(created).toBe(ITEMS);
		}, 60_000);
	});

	describe('on a service whose clock is 3 s behind', () => {
		const { sandbox } = useSandbox({ now: () => Date.now() - 3_000 });
		it('Retry-After as an HTTP date: every item is created once, no item fails', async () => {
			const { failed, created } = await createAgainstLimit(sandbox, { retryAfter: 'http-date' });
			expect(failed).toEqual([]);
			expect(created).toBe(ITEMS);
		}, 60_000);
	});

	describe('on a service whose clock is 90 s ahead', () => {
		const { sandbox } = useSandbox({ now: () => Date.now() + 90_000 });
		it('Retry-After as an HTTP date: every item is created once, no item fails', async () => {
			const { failed, created } = await createAgainstLimit(sandbox, { retryAfter: 'http-date' });
			expect(failed).toEqual([]);
			expect(created).toBe(ITEMS);
		}, 60_000);
	});
});
