import { runWorkflow, singleNodeWorkflow, testCredential, useSandbox } from '../../../harness';

/** The Base URL as users type it: spaces around it are forgiven, a missing scheme is explained. */
const NODE = 'n8n-nodes-support-ticket.supportTicket';
const getTicket = { resource: 'ticket', operation: 'getAll', returnAll: false, limit: 1 };
const { sandbox, credentials } = useSandbox({ seed: 3 });

describe('Base URL with spaces around it', () => {
	it('works in the node and in the credential Test', async () => {
		const spaced = { ...credentials, baseUrl: `  ${sandbox.baseUrl}/ \n` };
		const run = await runWorkflow(singleNodeWorkflow(NODE, getTicket), { supportTicketApi: spaced });
		expect(run.error).toBeUndefined();
		expect(run.output('Node')).toHaveLength(1);
		await expect(testCredential('supportTicketApi', spaced)).resolves.toMatchObject({ status: 'OK' });
		expect(sandbox.log.map((entry) => entry.status)).toEqual([200, 200]);
	});
});

describe('Base URL without a scheme', () => {
	const withoutScheme = () => sandbox.baseUrl.replace('http://', '');
	const advice = /is not a web address\. Enter the full address of the service, e\.g\. https:\/\/support\.example\.com, without \/api\/v1\/external\./;

	it('the node fails before any request and says what a Base URL looks like', async () => {
		const run = await runWorkflow(singleNodeWorkflow(NODE, getTicket), { supportTicketApi: { ...credentials, baseUrl: withoutScheme() } });
		expect(run.error?.message).toMatch(advice);
		expect(run.error?.message).toContain(`"${withoutScheme()}"`);
		expect(run.error).toMatchObject({ name: 'NodeOperationError' });
		expect(sandbox.log).toHaveLength(0);
	});

	it('the credential Test says the same', async () => {
		const result = await testCredential('supportTicketApi', { ...credentials, baseUrl: withoutScheme() });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(advice);
		expect(sandbox.log).toHaveLength(0);
	});
});
