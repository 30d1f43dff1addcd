import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { credentialsFor, runWorkflow, singleNodeWorkflow, useSandbox } from '../../../harness';

/**
 * A create is repeated at once only when the service said it did not process it. A gateway in
 * front of the service can answer 503 after the service processed the request (it timed out
 * waiting): after a 503 without Retry-After the node first reads the newest tickets and returns the
 * one it made; a 503 with Retry-After (the service refusing it) is repeated.
 */
const NODE = 'n8n-nodes-support-ticket.supportTicket';
const createTicket = { resource: 'ticket', operation: 'create', subject: 'Gateway', description: 'D', customerEmail: 'gw@example.com' };
const { sandbox } = useSandbox({ seed: 2 });
let gateway: Server;
let gatewayUrl: string;

/** Passes everything on, except that the first POST's answer is replaced by a bare 503 (no Retry-After). */
function startGateway(target: string): Promise<Server> {
	let posts = 0;
	const server = createServer((incoming, outgoing) => {
		const forward = request(`${target}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
			const chunks: Buffer[] = [];
			answer.on('data', (chunk: Buffer) => chunks.push(chunk));
			answer.on('end', () => {
				if (incoming.method === 'POST' && ++posts === 1) {
					outgoing.writeHead(503, { 'content-type': 'text/html' }).end('<html>Service Unavailable</html>');
					return;
				}
				outgoing.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(chunks));
			});
		});
		incoming.pipe(forward);
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
	gateway = await startGateway(sandbox.baseUrl);
	gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
});
afterAll(async () => {
	gateway.closeAllConnections();
	await new Promise<void>((resolve) => gateway.close(() => resolve()));
});

function run(baseUrl: string) {
	return runWorkflow(singleNodeWorkflow(NODE, createTicket), { supportTicketApi: credentialsFor(sandbox, baseUrl) });
}

describe('POST and 503', () => {
	it('a 503 without Retry-After (a gateway; the service may have processed it) is not repeated: the ticket it made is found and returned', async () => {
		const before = sandbox.store.ticketCount;
		const result = await run(gatewayUrl);
		expect(sandbox.store.ticketCount).toBe(before + 1);
		expect(sandbox.countCalls({ method: 'POST' })).toBe(1);
		expect(result.error).toBeUndefined();
		expect(result.output('Node').map((o) => o.json)).toEqual([sandbox.store.listTickets()[0]]);
		expect(sandbox.log.map((e) => `${e.method} ${e.status}`)).toEqual(['POST 201', 'GET 200']);
	});

	it('a 503 with Retry-After (the service refused it) is repeated and creates the ticket once', async () => {
		sandbox.setFaults({ next: [503], retryAfter: 1 });
		const before = sandbox.store.ticketCount;
		const result = await run(sandbox.baseUrl);
		expect(result.error).toBeUndefined();
		expect(sandbox.store.ticketCount).toBe(before + 1);
		expect(sandbox.log.map((entry) => [entry.method, entry.status])).toEqual([
			['POST', 503],
			['POST', 201],
		]);
	});
});
