import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { credentialsFor, runWorkflow, singleNodeWorkflow, useSandbox } from '../../harness';
import { startSandbox, type Sandbox } from '../../../sandbox';

// What a user reads when the service says no, against the sandbox's own error bodies.
const NODE = 'n8n-nodes-support-ticket.supportTicket';
const { sandbox, credentials } = useSandbox({ seed: 5 });

async function failure(parameters: IDataObject, creds: ICredentialDataDecryptedObject = credentials) {
	const result = await runWorkflow(singleNodeWorkflow(NODE, parameters), { supportTicketApi: creds });
	expect(result.error).toBeDefined();
	return { message: result.error?.message, description: result.error?.description ?? '', name: result.error?.name };
}

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const listTickets = { resource: 'ticket', operation: 'getAll', limit: 1 };

describe('401: names the causes in the order to check them', () => {
	const causes = (description: string) => {
		expect(description).toContain('the API Key and API Secret in the credential');
		expect(description).toContain('the clock of the machine running n8n');
		expect(description).toContain('the service refuses a timestamp a few minutes off');
		expect(description).toContain('that the Base URL is the address the service signs');
	};

	it('wrong secret', async () => {
		const error = await failure(listTickets, { ...credentials, apiSecret: 'not-the-secret' });
		expect(error.message).toBe('Authentication failed (HTTP 401): the service did not accept the request signature');
		causes(error.description);
		expect(error.description).toContain('The service said: "x-api-signature does not match.');
		expect(sandbox.log[0].authError).toBe('invalid_signature');
	});

	it('unknown key', async () => {
		const error = await failure(listTickets, { ...credentials, apiKey: 'unknown-key' });
		expect(error.message).toBe('Authentication failed (HTTP 401): the service did not accept the request signature');
		causes(error.description);
		expect(error.description).toContain('The service said: "The x-api-key is not known to this service."');
	});

	describe('clock ten minutes off', () => {
		let skewed: Sandbox;
		beforeAll(async () => {
			skewed = await startSandbox({ now: () => Date.now() + 600_000 });
		});
		afterAll(async () => skewed.stop());

		it('the service says how far off; the node says to check the clock', async () => {
			const error = await failure(listTickets, credentialsFor(skewed));
			expect(error.message).toBe('Authentication failed (HTTP 401): the service did not accept the request signature');
			causes(error.description);
			expect(error.description).toMatch(/The service said: "x-api-timestamp is 60\d seconds behind the server clock/);
		});
	});
});

describe('404: names what was not found', () => {
	it.each([
		['ticket get', { resource: 'ticket', operation: 'get', ticketId: byId('tkt_404') }, 'The ticket with ID "tkt_404" was not found'],
		['ticket update', { resource: 'ticket', operation: 'update', ticketId: byId('tkt_404'), updateFields: { subject: 'x' } }, 'The ticket with ID "tkt_404" was not found'],
		['reply create on a missing ticket', { resource: 'reply', operation: 'create', ticketId: byId('tkt_404'), body: 'Hi' }, 'The ticket with ID "tkt_404" was not found'],
		['replies of a missing ticket', { resource: 'reply', operation: 'getAll', ticketId: byId('tkt_404'), returnAll: true }, 'The ticket with ID "tkt_404" was not found'],
		['customer get', { resource: 'customer', operation: 'get', customerId: byId('cus_404') }, 'The customer with ID "cus_404" was not found'],
	])('%s', async (_name, parameters, message) => {
		const error = await failure(parameters);
		expect(error.message).toBe(message);
		expect(error.description).toMatch(/^Check the ID, or pick the (ticket|customer) from the list\. The service said: "/);
	});
});

describe("422: the service's field messages", () => {
	it('every field the service named, with its problem', async () => {
		const error = await failure({
			resource: 'ticket',
			operation: 'create',
			subject: 'S',
			description: 'D',
			customerEmail: 'a@example.com',
			additionalFields: { priority: '__custom__', customPriority: 'critical', customFieldsJson: '{"id": "tkt_1"}' },
		});
		expect(error.message).toBe(
			'The service rejected the data: id: is read-only and is assigned by the service; priority: must be one of low, normal, high, urgent',
		);
		expect(error.description).toMatch(/^Correct the fields named above\. The service said: "/);
		expect(sandbox.log.map((e) => e.status)).toEqual([422]);
	});

	it('a taken e-mail on customer create', async () => {
		const taken = sandbox.store.listCustomers()[0].email;
		const error = await failure({ resource: 'customer', operation: 'create', email: taken });
		expect(error.message).toMatch(/^The service rejected the data: email: /);
	});
});
