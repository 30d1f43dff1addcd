import { itemsWorkflow, runWorkflow, useSandbox } from '../../../harness';
import { byId, NODE } from '../../supportTicketNode';

// n8n's server decrypts a credential on every read: signing reads it once per request, the node once per run.
const ITEMS = 10;
const { sandbox, credentials } = useSandbox({ seed: ITEMS });

const ids = Array.from({ length: ITEMS }, (_, i) => ({ id: `tkt_${i + 1}` }));
const getTickets = (concurrentRequests: number) => ({
	resource: 'ticket',
	operation: 'get',
	ticketId: byId('={{ $json.id }}'),
	options: { concurrentRequests },
});

describe.each([1, 4])('Ticket → Get of 10 items, Concurrent Requests %i', (concurrentRequests) => {
	it('reads the credential once for the node and once per request for signing: 11 reads', async () => {
		const run = await runWorkflow(itemsWorkflow(ids, NODE, getTickets(concurrentRequests)), {
			supportTicketApi: credentials,
		});
		expect(run.error).toBeUndefined();
		expect(run.output('Node').map((item) => item.json.id)).toEqual(ids.map(({ id }) => id));
		expect(sandbox.log).toHaveLength(ITEMS);
		expect(run.credentialsHelper.decryptedReads).toBe(ITEMS + 1);
	});

	it('a wrong Base URL with Continue On Fail gives every item the error, and sends nothing', async () => {
		const wrong = { supportTicketApi: { ...credentials, baseUrl: 'support.example.com' } };
		const run = await runWorkflow(
			itemsWorkflow(ids, NODE, getTickets(concurrentRequests), {
				onError: 'continueRegularOutput',
			}),
			wrong,
		);
		expect(run.error).toBeUndefined();
		const output = run.output('Node');
		expect(output).toHaveLength(ITEMS);
		for (const item of output)
			expect(item.json.error).toMatch(
				/"support\.example\.com" in the credential is not a web address\. Enter the full address of the service, e\.g\. https:/,
			);
		expect(output.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
		expect(sandbox.log).toHaveLength(0);
	});
});
