import type { IDataObject } from 'n8n-workflow';

import {
	credentialsFor,
	runWorkflow,
	singleNodeWorkflow,
	testCredential,
	useSandbox,
} from '../../../harness';
import {
	startMisbehavingProxy,
	startRawServer,
	type MisbehavingProxy,
	type RawServer,
} from '../../../harness/misbehavingProxy';
import { byId, runNode } from '../../supportTicketNode';

// A redirect is never followed: a signature does not cover the host (another origin could replay it), and a 301/302
// would turn a create into a GET.
const { sandbox } = useSandbox({ seed: 5 });
let proxy: MisbehavingProxy;
let foreign: RawServer;

beforeAll(async () => {
	proxy = await startMisbehavingProxy(sandbox.baseUrl);
	foreign = await startRawServer((_req, res) => {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end('{"data":{"id":"tkt_1","subject":"from another origin"}}');
	});
});
afterAll(async () => {
	await proxy.stop();
	await foreign.stop();
});
beforeEach(() => {
	proxy.setRules([]);
	foreign.received.length = 0;
});

const credentials = () => credentialsFor(sandbox, proxy.baseUrl);
const redirectTo = (status: number, location: string) => ({
	kind: 'replace' as const,
	status,
	headers: { location },
});

describe('the node does not follow redirects', () => {
	const createTicket: IDataObject = {
		resource: 'ticket',
		operation: 'create',
		subject: 'S',
		description: 'D',
		customerEmail: 'r@example.com',
	};
	const getTicket: IDataObject = { resource: 'ticket', operation: 'get', ticketId: byId('tkt_1') };

	// A 301/302 on a create is not turned into a GET, and does not blame the API key.
	it.each<[string, number, IDataObject, string, string]>([
		['a 307 on a Get', 307, getTicket, '/api/v1/external/tickets/tkt_1', ''],
		['a 301 on a create', 301, createTicket, '/support/api/v1/external/tickets', '/support'],
		['a 302 on a create', 302, createTicket, '/support/api/v1/external/tickets', '/support'],
	])(
		'%s to another origin sends it nothing and says where to point the Base URL',
		async (_name, status, parameters, path, prefix) => {
			const before = sandbox.store.ticketCount;
			const location = `${foreign.baseUrl}${path}`;
			proxy.setRules([{ times: 1, answer: redirectTo(status, location) }]);
			const result = await runNode(parameters, credentials());
			expect(result.error?.message).toBe(
				`The service redirected to ${location}: set the Base URL to ${foreign.baseUrl}${prefix}`,
			);
			expect(result.error?.description).not.toMatch(/API key/i);
			expect(foreign.received).toHaveLength(0);
			expect(proxy.received.map((r) => r.method)).toEqual([
				String(parameters.operation === 'create' ? 'POST' : 'GET'),
			]);
			expect(sandbox.store.ticketCount).toBe(before);
		},
	);

	it('a redirect somewhere outside the API names the address and asks to check the Base URL', async () => {
		proxy.setRules([{ times: 1, answer: redirectTo(302, '/login?next=%2Fapi') }]);
		const result = await runNode(getTicket, credentials());
		expect(result.error?.message).toBe(
			`The service redirected to ${proxy.baseUrl}/login?next=%2Fapi: check the Base URL in the credential`,
		);
	});
});

describe('requests signed by the credential for other nodes (HTTP Request node) do not follow redirects either', () => {
	it.each([false, true])(
		'legacy request %p: the other origin receives no API key or signature',
		async (legacy) => {
			proxy.setRules([
				{ times: 1, answer: redirectTo(307, `${foreign.baseUrl}/api/v1/external/tickets`) },
			]);
			const result = await runWorkflow(
				singleNodeWorkflow('harness.signedRequest', {
					method: 'GET',
					url: '/api/v1/external/tickets',
					legacy,
				}),
				{ supportTicketApi: credentials() },
			);
			expect(foreign.received).toHaveLength(0);
			// What the node sees is the redirect itself, not the other origin's answer.
			const seen = result.error
				? String(result.error.message)
				: JSON.stringify(result.output('Node')[0].json);
			expect(seen).not.toContain('from another origin');
		},
	);

	it('the credential Test fails on a redirect, saying so', async () => {
		proxy.setRules([
			{
				times: 1,
				answer: redirectTo(301, `${foreign.baseUrl}/api/v1/external/tickets?per_page=1`),
			},
		]);
		const result = await testCredential('supportTicketApi', credentials());
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The service answered with a redirect/);
		expect(foreign.received).toHaveLength(0);
	});
});
