import type { IDataObject } from 'n8n-workflow';

import {
	itemsWorkflow,
	runWorkflow,
	singleNodeWorkflow,
	useSandbox,
	type WorkflowJson,
} from '../../harness';
import { reachableText } from '../../harness/reachableText';
import { startMisbehavingProxy, type MisbehavingProxy } from '../../harness/misbehavingProxy';
import { byId, NODE } from '../supportTicketNode';

// No secret in anything n8n keeps or shows: the secret nowhere (only its HMAC travels); the key nowhere in the run,
// its output or errors (it travels, by design, as the x-api-key header).
const API_KEY = 'key-Q7XK-distinctive-2c1f';
const API_SECRET = 'secret-W9ZP-distinctive-88ab';
const WRONG_SECRET = 'secret-WRONG-distinctive-5e5e';
// Any Unicode text is a valid API Secret (its UTF-8 bytes are the HMAC key).
const UNICODE_SECRET = 'sécret-ключ-🔑-distinctive-41d7';
const SECRETS = [API_SECRET, WRONG_SECRET, UNICODE_SECRET];
const { sandbox } = useSandbox({
	seed: 30,
	apiKey: API_KEY,
	apiSecret: API_SECRET,
	keys: { [`${API_KEY}-unicode`]: UNICODE_SECRET },
});
let proxy: MisbehavingProxy;

beforeAll(async () => (proxy = await startMisbehavingProxy(sandbox.baseUrl)));
afterAll(async () => proxy.stop());
beforeEach(() => proxy.setRules([]));

const create = {
	resource: 'ticket',
	operation: 'create',
	subject: 'S',
	description: 'D',
	customerEmail: 'a@example.com',
};

interface Case {
	name: string;
	workflow: () => WorkflowJson;
	secret?: string;
	key?: string;
	baseUrl?: () => string;
	setup?: () => void;
	fails: boolean;
}

const node = (parameters: IDataObject) => () => singleNodeWorkflow(NODE, parameters);
const ticketList = { resource: 'ticket', operation: 'getAll', limit: 1 };
const listTickets = node(ticketList);

const cases: Case[] = [
	{ name: 'get many succeeds', workflow: node({ ...ticketList, limit: 5 }), fails: false },
	{
		name: 'create with a Unicode API Secret succeeds',
		workflow: node(create),
		key: `${API_KEY}-unicode`,
		secret: UNICODE_SECRET,
		fails: false,
	},
	{ name: '401, wrong secret', workflow: listTickets, secret: WRONG_SECRET, fails: true },
	{
		name: '422',
		workflow: node({ ...create, additionalFields: { customFieldsJson: '{"id":"x"}' } }),
		fails: true,
	},
	{
		name: '429 with a wait too long',
		workflow: node({ resource: 'customer', operation: 'getAll', returnAll: true }),
		setup: () => sandbox.setFaults({ next: [429], retryAfter: 600 }),
		fails: true,
	},
	{
		name: 'connection refused',
		workflow: listTickets,
		baseUrl: () => 'http://127.0.0.1:9',
		fails: true,
	},
	{
		name: 'connection reset on a create and on every attempt of the lookup: the ticket may exist',
		workflow: node(create),
		baseUrl: () => proxy.baseUrl,
		setup: () =>
			proxy.setRules([
				{ method: 'POST', times: 1, answer: { kind: 'reset', when: 'after' } },
				{ method: 'GET', times: 5, answer: { kind: 'reset', when: 'before' } },
			]),
		fails: true,
	},
	{
		name: 'bad input (no request)',
		workflow: node({ ...create, customerEmail: 'not-an-email' }),
		fails: true,
	},
	{
		name: 'continue on fail: the error is an output item',
		workflow: () =>
			itemsWorkflow(
				[{ id: 'tkt_404' }, { id: 'tkt_1' }],
				NODE,
				{ resource: 'ticket', operation: 'get', ticketId: byId('={{ $json.id }}') },
				{ continueOnFail: true },
			),
		fails: false,
	},
];

describe('no secret in what n8n keeps or shows', () => {
	it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
		c.setup?.();
		const credentials = {
			baseUrl: c.baseUrl?.() ?? sandbox.baseUrl,
			apiKey: c.key ?? API_KEY,
			apiSecret: c.secret ?? API_SECRET,
		};
		const result = await runWorkflow(c.workflow(), { supportTicketApi: credentials });
		expect(result.error !== undefined).toBe(c.fails);
		if (c.fails) {
			expect(result.error?.message).toEqual(expect.any(String));
			expect(result.error?.description).toEqual(expect.any(String));
		}

		// Run data (every node's output and error, as n8n stores the execution) and the error shown.
		const shown = reachableText({ run: result.run, error: result.error });
		// The search does reach the stored output and the error's description.
		expect(shown).toContain(result.run ? 'resultData' : 'WorkflowHasIssuesError');
		if (c.fails) expect(shown).toContain(result.error?.description as string);
		for (const value of [...SECRETS, API_KEY]) expect(shown).not.toContain(value);

		// The signed requests the harness recorded, and what the service received: no secret.
		const sent = reachableText({
			signed: result.credentialsHelper.authenticated,
			received: sandbox.log,
		});
		for (const value of SECRETS) expect(sent).not.toContain(value);
		// The search reaches the headers: the key is there, as it must be on the wire.
		if (c.name === 'get many succeeds') expect(sent).toContain(API_KEY);
		// A continue-on-fail error item holds the message, not the request.
		if (c.name.startsWith('continue on fail'))
			expect(Object.keys(result.output('Node')[0].json).sort()).toEqual(['description', 'error']);
	});
});
