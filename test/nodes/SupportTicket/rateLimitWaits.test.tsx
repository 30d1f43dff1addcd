import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, itemsWorkflow, runWorkflow, useSandbox } from '../../harness';
import type { Sandbox } from '../../../sandbox';
import { NODE } from '../supportTicketNode';

// No item fails for being rate-limited, whatever form Retry-After takes: 0 (no wait below the backoff), or an HTTP date
// on a service clock off from this machine's (read against the answer's Date header).
const ITEMS = 60;

async function createAgainstLimit(sandbox: Sandbox, rateLimit: IDataObject) {
	const tag = `limit-${Date.now().toString(36)}`;
	const items = Array.from({ length: ITEMS }, (_, i) => ({ subject: `${tag} #${i}` }));
	sandbox.setFaults({ rateLimit: { perSecond: 10, ...rateLimit } });
	const result = await runWorkflow(
		itemsWorkflow(
			items,
			NODE,
			{
				resource: 'ticket',
				operation: 'create',
				subject: '={{ $json.subject }}',
				description: 'D',
				customerEmail: 'limit@example.com',
			},
			{ continueOnFail: true },
		),
		{ supportTicketApi: credentialsFor(sandbox) },
	);
	expect(result.error).toBeUndefined();
	const output = result.output('Node');
	const failed = output.filter((o) => o.json.error !== undefined).map((o) => String(o.json.error));
	const created = sandbox.store.listTickets().filter((t) => t.subject.startsWith(tag)).length;
	return { failed, created };
}

describe.each([
	['the same clock', 0, 0],
	['a clock 3 s behind', -3_000, 'http-date'],
	['a clock 90 s ahead', 90_000, 'http-date'],
] as const)(
	'60 creates against 10 requests/s, on a service with %s',
	(_clock, offsetMs, retryAfter) => {
		const { sandbox } = useSandbox({ now: () => Date.now() + offsetMs });
		const form = retryAfter === 0 ? '"Retry-After: 0"' : 'Retry-After as an HTTP date';
		it(`${form}: every item is created once, no item fails`, async () => {
			const { failed, created } = await createAgainstLimit(sandbox, { retryAfter });
			expect(failed).toEqual([]);
			expect(created).toBe(ITEMS);
		}, 60_000);
	},
);
