import { credentialsFor, useSandbox } from '../harness';
import { startRawServer } from '../harness/misbehavingProxy';
import { runNode } from '../nodes/supportTicketNode';

/** What the credential Test and the node say when nothing answers at the Base URL (connection refused). */
const { sandbox } = useSandbox({ seed: 1 });

async function closedPortBaseUrl(): Promise<{ baseUrl: string; hostPort: string }> {
	const server = await startRawServer((_req, res) => res.end());
	await server.stop();
	return { baseUrl: server.baseUrl, hostPort: new URL(server.baseUrl).host };
}

describe('a refused connection', () => {
	// The credential Test shows only n8n's `error.cause.code`: a `testedBy` function could say more, but its only HTTP
	// helper, `helpers.request`, fails n8n's verification scan.

	// A create that was refused is tried again like a read: nothing was sent.
	it.each([
		['a list', { resource: 'customer', operation: 'getAll', returnAll: true }],
		['a create', { resource: 'customer', operation: 'create', email: 'r@example.com' }],
	])('the node says what it means for %s, naming the address', async (_what, parameters) => {
		const { baseUrl, hostPort } = await closedPortBaseUrl();
		const result = await runNode(parameters, credentialsFor(sandbox, baseUrl));
		expect(result.error?.message).toBe(
			'Could not reach the service: the connection was refused, still after 5 attempts',
		);
		expect(result.error?.description).toBe(
			`Nothing answers at ${hostPort} (ECONNREFUSED): check the Base URL in the credential and that the service is up.`,
		);
	});
});
