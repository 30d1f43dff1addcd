import { testCredential, useSandbox } from '../harness';
import { runNode } from '../nodes/supportTicketNode';

const { sandbox, credentials } = useSandbox({ seed: 32 });

// Base URLs that parse but cannot work: the credential Test says what a Base URL looks like, before any request.
it.each<[string, (baseUrl: string) => string, RegExp]>([
	['with a query', (url) => `${url}/?tenant=1`, /query|\?/],
	['with a fragment', (url) => `${url}#main`, /fragment|#/],
	[
		'without a scheme',
		(url) => url.replace('http://', ''),
		/is not a web address\. Enter the full address of the service, e\.g\. https:\/\/support\.example\.com, without \/api\/v1\/external\./,
	],
])(
	'a Base URL %s is refused with a message, before any request',
	async (_name, baseUrl, message) => {
		const result = await testCredential('supportTicketApi', {
			...credentials,
			baseUrl: baseUrl(sandbox.baseUrl),
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(message);
		expect(result.message).toMatch(/Base URL/);
		expect(sandbox.log).toEqual([]);
	},
);

// A Base URL copied from a request address (…/api/v1/external/tickets): refused, naming what to remove and the Base URL to use.
describe('a Base URL with the API path, or a resource path after it', () => {
	it.each([
		'/api/v1/external/',
		'/api/v1/external/customers',
		'/api/v1/external/tickets/tkt_1/replies',
		'/API/V1/External/tickets',
	])('%s: the credential Test and the node refuse it before any request', async (suffix) => {
		const baseUrl = `${sandbox.baseUrl}${suffix}`;
		const expected = `The Base URL "${baseUrl}" in the credential ends with ${suffix.replace(/\/$/, '')}, a path the node adds itself: remove it and enter "${sandbox.baseUrl}".`;
		const result = await testCredential('supportTicketApi', { ...credentials, baseUrl });
		expect(result.status).toBe('Error');
		expect(result.message).toContain(expected);
		const run = await runNode(
			{ resource: 'ticket', operation: 'getAll', limit: 1 },
			{ ...credentials, baseUrl },
		);
		expect(run.error?.message).toContain(expected);
		expect(run.error).toMatchObject({ name: 'NodeOperationError' });
		expect(sandbox.log).toEqual([]);
	});

	it('a path prefix that merely contains "external" still works', async () => {
		// The sandbox answers only under /api/v1/external: a 404 proves the request was sent as configured.
		const result = await testCredential('supportTicketApi', {
			...credentials,
			baseUrl: `${sandbox.baseUrl}/external-support`,
		});
		expect(sandbox.log.map((entry) => entry.path)).toEqual([
			'/external-support/api/v1/external/tickets?per_page=1',
		]);
		expect(result.status).toBe('Error');
	});
});

it('a Base URL as users type it: spaces around it are forgiven, in the node and in the credential Test', async () => {
	const spaced = { ...credentials, baseUrl: `  ${sandbox.baseUrl}/ \n` };
	const run = await runNode({ resource: 'ticket', operation: 'getAll', limit: 1 }, spaced);
	expect(run.output('Node')).toHaveLength(1);
	await expect(testCredential('supportTicketApi', spaced)).resolves.toMatchObject({
		status: 'OK',
	});
	expect(sandbox.log.map((entry) => entry.status)).toEqual([200, 200]);
});
// The node's message for a missing scheme: actions/router.test.tsx.
