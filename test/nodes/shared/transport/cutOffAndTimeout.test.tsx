import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, useSandbox } from '../../../harness';
import {
	startMisbehavingProxy,
	type MisbehavingProxy,
	type Misbehaviour as Answer,
} from '../../../harness/misbehavingProxy';
import { byId, runNode } from '../../supportTicketNode';

// A GET whose connection drops, whose answer is cut off or never comes is repeated (in Return All only that page);
// a create is never repeated blindly: createRecovery.test.tsx (processed-drop), SupportTicket/concurrency.test.tsx
// (resets before and after) and credentialTestConnection.test.tsx (refused).
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

const getTicket = (id: string, options: IDataObject = {}) =>
	run({ resource: 'ticket', operation: 'get', ticketId: byId(id), options });

it.each<[string, Answer, IDataObject]>([
	['a reset before the service answered', { kind: 'reset', when: 'before' }, {}],
	['a reset after the service answered', { kind: 'reset', when: 'after' }, {}],
	['no answer within the Timeout', { kind: 'hang' }, { timeout: 200 }],
])('a Get after %s is asked again and succeeds', async (_name, answer, options) => {
	const ticket = sandbox.store.listTickets()[3];
	proxy.setRules([{ method: 'GET', times: 1, answer }]);
	const result = await getTicket(ticket.id, options);
	expect(result.error).toBeUndefined();
	expect(result.output('Node').map((item) => item.json)).toEqual([ticket]);
	expect(proxy.received).toHaveLength(2);
});

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

it.each<[Answer, IDataObject, string, RegExp]>([
	[
		{ kind: 'reset', when: 'before' },
		{},
		'the connection was dropped',
		/^Network error ECONNRESET: check the Base URL/,
	],
	[{ kind: 'cutOff' }, {}, 'the answer was cut off before it was complete', /./],
	[{ kind: 'hang' }, { timeout: 100 }, 'no answer within the timeout (0.1 s)', /Options → Timeout/],
])(
	'a Get that keeps failing (%j) fails after the bounded number of attempts, saying what happened',
	async (answer, options, what, description) => {
		proxy.setRules([{ method: 'GET', times: 100, answer }]);
		const result = await getTicket('tkt_1', options);
		expect(result.error?.message).toBe(
			`Could not reach the service: ${what}, still after 5 attempts`,
		);
		expect(result.error?.description).toMatch(description);
		expect(proxy.received).toHaveLength(5);
	},
);

it.each<[string, Answer, IDataObject]>([
	['cut off', { kind: 'cutOff' }, {}],
	['not given within the Timeout', { kind: 'hang', forward: true }, { timeout: 300 }],
])(
	'a create processed but whose answer is %s is not sent again: the node finds the ticket and returns it',
	async (what, answer, options) => {
		const before = sandbox.store.ticketCount;
		proxy.setRules([{ method: 'POST', times: 1, answer }]);
		const result = await run(create(`Answer ${what}`, options));
		expect(result.error).toBeUndefined();
		expect(result.output('Node').map((item) => item.json.subject)).toEqual([`Answer ${what}`]);
		expect(proxy.received.map((r) => r.method)).toEqual(['POST', 'GET']);
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
