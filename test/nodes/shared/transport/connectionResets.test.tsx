import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, runWorkflow, singleNodeWorkflow, useSandbox } from '../../../harness';
import { startResettingProxy, type ResettingProxy } from '../../../harness/resettingProxy';

/**
 * Dropped connections, through the engine: the sandbox sits behind a proxy that destroys chosen
 * sockets. A GET is repeated; a POST is not repeated blindly, because the client cannot tell
 * whether the service processed it: the node reads the newest tickets, returns the one it made,
 * or sends the POST again when it is not there (createRecovery.ts).
 */
const NODE = 'n8n-nodes-support-ticket.supportTicket';
const TICKETS = 250;
const { sandbox } = useSandbox({ seed: TICKETS });
let proxy: ResettingProxy;

beforeAll(async () => (proxy = await startResettingProxy(sandbox.baseUrl)));
afterAll(async () => proxy.stop());

async function run(parameters: IDataObject) {
	const credentials = credentialsFor(sandbox, proxy.baseUrl);
	return await runWorkflow(singleNodeWorkflow(NODE, parameters), { supportTicketApi: credentials });
}

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const ticketsPath = '/api/v1/external/tickets';

describe('a GET that hits a connection reset is repeated and succeeds', () => {
	it.each(['before', 'after'] as const)('reset %s the service answered', async (when) => {
		const ticket = sandbox.store.listTickets()[3];
		proxy.setRules([{ method: 'GET', times: 1, when }]);
		const result = await run({ resource: 'ticket', operation: 'get', ticketId: byId(ticket.id) });
		expect(result.error).toBeUndefined();
		expect(result.output('Node').map((i) => i.json)).toEqual([ticket]);
		expect(proxy.resets).toHaveLength(1);
		expect(proxy.requests).toHaveLength(2);
		expect(sandbox.log).toHaveLength(when === 'after' ? 2 : 1);
	});

	it('inside Return All only the dropped page is fetched again', async () => {
		proxy.setRules([{ method: 'GET', path: /cursor=/, times: 1, when: 'after' }]);
		const result = await run({ resource: 'ticket', operation: 'getAll', returnAll: true });
		expect(result.error).toBeUndefined();
		const ids = result.output('Node').map((i) => i.json.id);
		expect(ids).toEqual(sandbox.store.listTickets().map((t) => t.id));
		expect(new Set(ids).size).toBe(TICKETS);
		// 3 pages, the second one twice (dropped, then repeated); page 1 was never asked for again.
		expect(sandbox.log.map((e) => e.query.cursor ?? 'first')).toEqual([
			'first',
			sandbox.log[1].query.cursor,
			sandbox.log[1].query.cursor,
			sandbox.log[3].query.cursor,
		]);
		expect(new Set(sandbox.log.map((e) => e.query.cursor ?? 'first')).size).toBe(3);
	});

	it('a connection that keeps dropping fails after the bounded number of attempts', async () => {
		proxy.setRules([{ method: 'GET', times: 100, when: 'before' }]);
		const result = await run({ resource: 'ticket', operation: 'get', ticketId: byId('tkt_1') });
		expect(result.error?.message).toBe('Could not reach the service: the connection was dropped, still after 5 attempts');
		expect(result.error?.description).toMatch(/^Network error ECONNRESET: check the Base URL/);
		expect(proxy.requests).toHaveLength(5);
		expect(sandbox.log).toHaveLength(0);
	});
});

describe('a POST that hits a connection reset is not repeated blindly', () => {
	const create = (subject: string) => ({
		resource: 'ticket',
		operation: 'create',
		subject,
		description: 'Sent once',
		// A customer per subject: a lost create may take a ticket of its customer made seconds before.
		customerEmail: `${subject.replace(/\W+/g, '-').toLowerCase()}@example.com`,
	});

	it('processed by the service, answer lost: one POST, the newest tickets read, the ticket made is returned', async () => {
		const before = sandbox.store.ticketCount;
		proxy.setRules([{ method: 'POST', times: 1, when: 'after' }]);
		const result = await run(create('Reset after processing'));
		expect(result.error).toBeUndefined();
		const made = sandbox.store.listTickets().filter((t) => t.subject === 'Reset after processing');
		expect(made).toHaveLength(1);
		expect(result.output('Node').map((i) => i.json)).toEqual(made);
		expect(proxy.requests).toEqual([`POST ${ticketsPath}`, `GET ${ticketsPath}?per_page=100`]);
		expect(sandbox.store.ticketCount).toBe(before + 1);
	});

	it('dropped before the service saw it: not among the newest tickets, so sent again, made once', async () => {
		const before = sandbox.store.ticketCount;
		proxy.setRules([{ method: 'POST', times: 1, when: 'before' }]);
		const result = await run(create('Reset before processing'));
		expect(result.error).toBeUndefined();
		// Looked for twice (the service might still be working on it), then sent again.
		expect(proxy.requests).toEqual([`POST ${ticketsPath}`, `GET ${ticketsPath}?per_page=100`, `GET ${ticketsPath}?per_page=100`, `POST ${ticketsPath}`]);
		expect(sandbox.store.ticketCount).toBe(before + 1);
		expect(result.output('Node')[0].json.subject).toBe('Reset before processing');
	});
});

describe('a POST whose connection is refused never reached the service', () => {
	it('is repeated like any request (5 attempts), and makes nothing', async () => {
		// A port that was free a moment ago: nothing listens there.
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const { port } = closed.address() as AddressInfo;
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		const result = await runWorkflow(
			singleNodeWorkflow(NODE, { resource: 'ticket', operation: 'create', subject: 'Refused', description: 'D', customerEmail: 'refused@example.com' }),
			{ supportTicketApi: credentialsFor(sandbox, `http://127.0.0.1:${port}`) },
		);
		expect(result.error?.message).toBe('Could not reach the service: the connection was refused, still after 5 attempts');
		expect(sandbox.log).toHaveLength(0);
	});
});
