import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, useSandbox } from '../../../harness';
import { startMisbehavingProxy, type MisbehavingProxy } from '../../../harness/misbehavingProxy';
import { byId, runNode } from '../../supportTicketNode';

// A GET cut off or unanswered is repeated (in Return All only that page); a create is never repeated blindly.
const TICKETS = 250;
const { sandbox } = useSandbox({ seed: TICKETS });
let proxy: MisbehavingProxy;

beforeAll(async () => (proxy = await startMisbehavingProxy(sandbox.baseUrl)));
afterAll(async () => proxy.stop());
beforeEach(() => proxy.setRules([]));

const run = (parameters: IDataObject) =>
	runNode(parameters, credentialsFor(sandbox, proxy.baseUrl));
const pages = () =>
	proxy.received.map((r) => new URL(r.target, 'http://x').searchParams.get('cursor') ?? 'first');
const create = (subject: string, options: IDataObject = {}) => ({
	resource: 'ticket',
	operation: 'create',
	subject,
	description: 'Sent once',
	// A customer per subject: a lost create may take a ticket of its customer made seconds before.
	customerEmail: `${subject.replace(/\W+/g, '-').toLowerCase()}@example.com`,
	options,
});

describe('an answer cut off after the headers', () => {
	it('inside Return All, only the cut-off page is asked for again and every ticket comes once', async () => {
		proxy.setRules([{ method: 'GET', path: /cursor=/, times: 1, answer: { kind: 'cutOff' } }]);
		const result = await run({ resource: 'ticket', operation: 'getAll', returnAll: true });
		expect(result.error).toBeUndefined();
		const ids = result.output('Node').map((item) => item.json.id);
		expect(ids).toEqual(sandbox.store.listTickets().map((t) => t.id));
		const seen = pages();
		expect(seen).toEqual(['first', seen[1], seen[1], seen[3]]);
		expect(new Set(seen).size).toBe(3);
	});

	it('a Get that keeps being cut off fails after the bounded number of attempts, saying what happened', async () => {
		proxy.setRules([{ method: 'GET', times: 100, answer: { kind: 'cutOff' } }]);
		const result = await run({ resource: 'ticket', operation: 'get', ticketId: byId('tkt_1') });
		expect(result.error?.message).toBe(
			'Could not reach the service: the answer was cut off before it was complete, still after 5 attempts',
		);
		expect(proxy.received).toHaveLength(5);
	});

	it('a create whose answer is cut off is not sent again: the node finds the ticket it created and returns it', async () => {
		const before = sandbox.store.ticketCount;
		proxy.setRules([{ method: 'POST', times: 1, answer: { kind: 'cutOff' } }]);
		const result = await run(create('Cut off after processing'));
		expect(result.error).toBeUndefined();
		expect(result.output('Node').map((item) => item.json.subject)).toEqual([
			'Cut off after processing',
		]);
		expect(proxy.received.map((r) => r.method)).toEqual(['POST', 'GET']);
		expect(sandbox.store.ticketCount).toBe(before + 1);
	});
});

describe('Options → Timeout: a service that accepts the connection and never answers', () => {
	it('a Get that gets no answer in time is asked again and succeeds', async () => {
		const ticket = sandbox.store.listTickets()[4];
		proxy.setRules([{ method: 'GET', times: 1, answer: { kind: 'hang' } }]);
		const result = await run({
			resource: 'ticket',
			operation: 'get',
			ticketId: byId(ticket.id),
			options: { timeout: 200 },
		});
		expect(result.error).toBeUndefined();
		expect(result.output('Node').map((item) => item.json)).toEqual([ticket]);
		expect(proxy.received).toHaveLength(2);
	});

	it('a Get that never gets an answer fails after the bounded number of attempts', async () => {
		proxy.setRules([{ method: 'GET', times: 100, answer: { kind: 'hang' } }]);
		const result = await run({
			resource: 'customer',
			operation: 'getAll',
			returnAll: true,
			options: { timeout: 100 },
		});
		expect(result.error?.message).toBe(
			'Could not reach the service: no answer within the timeout (0.1 s), still after 5 attempts',
		);
		expect(result.error?.description).toContain('Options → Timeout');
		expect(proxy.received).toHaveLength(5);
	});

	it('a create processed but not answered within the Timeout is not sent again: the node finds the ticket and returns it', async () => {
		const before = sandbox.store.ticketCount;
		proxy.setRules([{ method: 'POST', times: 1, answer: { kind: 'hang', forward: true } }]);
		const result = await run(create('Timed out after processing', { timeout: 300 }));
		expect(result.error).toBeUndefined();
		expect(result.output('Node').map((item) => item.json.subject)).toEqual([
			'Timed out after processing',
		]);
		expect(proxy.received.map((r) => r.method)).toEqual(['POST', 'GET']);
		expect(sandbox.store.ticketCount).toBe(before + 1);
	});

	it.each([502, 504])(
		'a create answered %i by a gateway that did not pass it on is looked for, then sent again: one ticket (one path for every ambiguous create)',
		async (status) => {
			const before = sandbox.store.ticketCount;
			proxy.setRules([
				{
					method: 'POST',
					times: 1,
					answer: {
						kind: 'replace',
						status,
						headers: { 'content-type': 'text/html' },
						body: '<html>Gateway</html>',
					},
				},
			]);
			const result = await run(create(`Gateway ${status}`));
			expect(result.error).toBeUndefined();
			expect(result.output('Node').map((item) => item.json.subject)).toEqual([`Gateway ${status}`]);
			expect(proxy.received.map((r) => r.method)).toEqual(['POST', 'GET', 'GET', 'POST']);
			expect(sandbox.store.ticketCount).toBe(before + 1);
		},
	);

	it.each([0, -5, 1.5, 'soon'])('a Timeout of %p fails before any request', async (timeout) => {
		const result = await run({
			resource: 'ticket',
			operation: 'get',
			ticketId: byId('tkt_1'),
			options: { timeout },
		});
		expect(result.error?.message).toMatch(/^Timeout must be a whole number of milliseconds from 1/);
		expect(proxy.received).toHaveLength(0);
	});
});
