import { credentialsFor, useSandbox } from '../../../harness';
import { runNode } from '../../supportTicketNode';

// n8n's server decrypts a credential on every read: signing reads it once per request, the node once per list.
const TICKETS = 1050;
const { sandbox } = useSandbox({ seed: TICKETS });

describe('a list read page by page reads the credential once, plus once per request for signing', () => {
	it('Return All over 1,050 tickets: 11 pages, 12 credential reads', async () => {
		const result = await runNode(
			{ resource: 'ticket', operation: 'getAll', returnAll: true },
			credentialsFor(sandbox),
		);
		expect(result.error).toBeUndefined();
		expect(result.output('Node')).toHaveLength(TICKETS);
		const pages = sandbox.countCalls({
			method: 'GET',
			pathname: '/api/v1/external/tickets',
			status: 200,
		});
		expect(pages).toBe(11);
		expect(result.credentialsHelper.decryptedReads).toBe(pages + 1);
	});
});
