import { credentialsFor, useSandbox } from '../../../harness';
import { startMisbehavingProxy, type MisbehavingProxy } from '../../../harness/misbehavingProxy';
import { byId, runNode } from '../../supportTicketNode';

// A GET whose connection drops is repeated. A create is not repeated blindly: createRecovery.test.tsx
// (processed-drop), SupportTicket/concurrency.test.tsx (resets before and after) and credentialTestConnection.test.tsx (refused).
const { sandbox } = useSandbox({ seed: 10 });
let proxy: MisbehavingProxy;

beforeAll(async () => (proxy = await startMisbehavingProxy(sandbox.baseUrl)));
afterAll(async () => proxy.stop());

const getTicket = (id: string) =>
	runNode(
		{ resource: 'ticket', operation: 'get', ticketId: byId(id) },
		credentialsFor(sandbox, proxy.baseUrl),
	);

describe('a GET that hits a connection reset is repeated and succeeds', () => {
	it.each(['before', 'after'] as const)('reset %s the service answered', async (when) => {
		const ticket = sandbox.store.listTickets()[3];
		proxy.setRules([{ method: 'GET', times: 1, answer: { kind: 'reset', when } }]);
		const result = await getTicket(ticket.id);
		expect(result.error).toBeUndefined();
		expect(result.output('Node').map((i) => i.json)).toEqual([ticket]);
		expect(proxy.received).toHaveLength(2);
		expect(sandbox.log).toHaveLength(when === 'after' ? 2 : 1);
	});

	it('a connection that keeps dropping fails after the bounded number of attempts', async () => {
		proxy.setRules([{ method: 'GET', times: 100, answer: { kind: 'reset', when: 'before' } }]);
		const result = await getTicket('tkt_1');
		expect(result.error?.message).toBe(
			'Could not reach the service: the connection was dropped, still after 5 attempts',
		);
		expect(result.error?.description).toMatch(/^Network error ECONNRESET: check the Base URL/);
		expect(proxy.received).toHaveLength(5);
		expect(sandbox.log).toHaveLength(0);
	});
});
