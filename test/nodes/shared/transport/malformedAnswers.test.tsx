import { credentialsFor, listSearch, testCredential, useSandbox } from '../../../harness';
import {
	startMisbehavingProxy,
	startRawServer,
	type MisbehavingProxy,
	type RawServer,
} from '../../../harness/misbehavingProxy';
import { byId, NODE, runNode } from '../../supportTicketNode';

// A 200 that is not the API's JSON is an error, never an empty or shortened result.
const TICKETS = 250;
const { sandbox } = useSandbox({ seed: TICKETS });
let proxy: MisbehavingProxy;
let webApp: RawServer;
const HTML =
	'<!DOCTYPE html><html><head><title>Acme Help Center</title></head><body>Welcome to the Acme Help Center, sign in to continue</body></html>';

beforeAll(async () => {
	proxy = await startMisbehavingProxy(sandbox.baseUrl);
	webApp = await startRawServer((_req, res) => {
		res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
		res.end(HTML);
	});
});
afterAll(async () => {
	await proxy.stop();
	await webApp.stop();
});
beforeEach(() => proxy.setRules([]));

const viaProxy = () => credentialsFor(sandbox, proxy.baseUrl);
const atWebApp = () => credentialsFor(sandbox, webApp.baseUrl);
const returnAll = { resource: 'ticket', operation: 'getAll', returnAll: true };
const page2 = /cursor=/;
/** The next GET is answered 200 with this JSON text instead of the service's answer. */
const answerOnceWith = (body: string) =>
	proxy.setRules([
		{
			method: 'GET',
			times: 1,
			answer: {
				kind: 'replace',
				status: 200,
				headers: { 'content-type': 'application/json' },
				body,
			},
		},
	]);

describe('a page of Return All answered 200 with something that is not a list of the API', () => {
	const notJson = /^The service answered with something that is not the API's JSON: /;
	const noData = /^The service answered a list without its "data" array$/;
	const CUT_OFF = '{"data":[{"id":"tkt_1","subject":"Printer';
	it.each([
		['an HTML page', HTML, notJson, `text/html, first 80 characters "${HTML.slice(0, 80)}…"`],
		['cut-off JSON', CUT_OFF, notJson, `application/json, first 80 characters "${CUT_OFF}"`],
		['JSON without a data array', '{"tickets":[],"meta":{"has_more":false}}', noData, ''],
		[
			'JSON whose data is not an array',
			'{"data":{"id":"tkt_1"},"meta":{"has_more":false}}',
			noData,
			'',
		],
	])(
		'%s on page 2 fails the node, naming the page, instead of returning page 1 alone',
		async (_name, body, message, shown) => {
			const headers = { 'content-type': body === HTML ? 'text/html' : 'application/json' };
			proxy.setRules([
				{
					method: 'GET',
					path: page2,
					times: 1,
					answer: { kind: 'replace', status: 200, headers, body },
				},
			]);
			const result = await runNode(returnAll, viaProxy());
			expect(result.error?.message).toMatch(message);
			expect(result.error?.message.endsWith(shown)).toBe(true);
			expect(result.error?.description).toContain('Page 2 of the list, after 100 items');
			expect(proxy.received.map((r) => (r.target.includes('cursor=') ? 'next' : 'first'))).toEqual([
				'first',
				'next',
			]);
		},
	);

	it('a bare array is still read as the page (a tolerated shape)', async () => {
		const tickets = sandbox.store.listTickets().slice(0, 2);
		answerOnceWith(JSON.stringify(tickets));
		const result = await runNode(returnAll, viaProxy());
		expect(result.error).toBeUndefined();
		expect(result.output('Node').map((item) => item.json.id)).toEqual(tickets.map((t) => t.id));
	});
});

describe('list entries that are not objects', () => {
	it.each([
		['null', 'null'],
		['a string', '"tkt_2"'],
		['an array', '[]'],
	])('%s fails with an error naming the page and the entry', async (what, entry) => {
		const body = `{"data":[{"id":"tkt_1"},${entry}],"meta":{"has_more":false}}`;
		answerOnceWith(body);
		const result = await runNode(returnAll, viaProxy());
		expect(result.error?.message).toBe(
			`The service sent a list entry that is not an object: entry 2 is ${what}`,
		);
		expect(result.error?.description).toContain('Page 1 of the list');
	});
});

describe('a Base URL that points at a web app answering 200 with HTML to everything', () => {
	const expected =
		/^The service answered with something that is not the API's JSON: text\/html; charset=utf-8, first 80 characters "<!DOCTYPE html>/;

	it.each([
		['Get', { resource: 'ticket', operation: 'get', ticketId: byId('tkt_1') }],
		[
			'Create',
			{
				resource: 'ticket',
				operation: 'create',
				subject: 'S',
				description: 'D',
				customerEmail: 'web@example.com',
			},
		],
		['Return All', returnAll],
	])('%s fails and says so, with no made-up item', async (_name, parameters) => {
		const result = await runNode(parameters, atWebApp());
		expect(result.error?.message).toMatch(expected);
		// The same advice as for a Base URL that is not a web address (credentials/baseUrlShape.test.tsx).
		expect(result.error?.description).toMatch(
			/Check the Base URL in the credential .*Enter the full address of the service, e\.g\. https:\/\/support\.example\.com, without \/api\/v1\/external\./,
		);
		// A create answered "success" may have been processed, whatever its body: not repeated, and the user is told.
		expect(result.error?.description?.includes('The create was not repeated')).toBe(
			parameters.operation === 'create',
		);
	});

	it('the credential Test fails', async () => {
		const result = await testCredential('supportTicketApi', atWebApp());
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/not as the Support Ticket API/);
	});

	it('the list search ("From list") fails instead of showing an empty list', async () => {
		await expect(
			listSearch(NODE, 'searchTickets', { supportTicketApi: atWebApp() }),
		).rejects.toThrow(expected);
	});
	// The poll trigger saves nothing when a poll fails: paginate.moreWithoutCursor.test.tsx.
});
