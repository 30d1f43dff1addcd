import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { useSandbox } from '../../harness';
import { byId, runNode } from '../supportTicketNode';

// What a user reads when the service says no, against the sandbox's own error bodies.
const { sandbox, credentials } = useSandbox({ seed: 5 });

async function failure(
	parameters: IDataObject,
	creds: ICredentialDataDecryptedObject = credentials,
) {
	const result = await runNode(parameters, creds);
	expect(result.error).toBeDefined();
	return {
		message: result.error?.message,
		description: result.error?.description ?? '',
		name: result.error?.name,
	};
}

const listTickets = { resource: 'ticket', operation: 'getAll', limit: 1 };

describe('401: names the causes in the order to check them', () => {
	const expect401 = (error: { message?: string; description: string }) => {
		expect(error.message).toBe(
			'Authentication failed (HTTP 401): the service did not accept the request signature',
		);
		expect(error.description).toContain('the API Key and API Secret in the credential');
		expect(error.description).toContain('the clock of the machine running n8n');
		expect(error.description).toContain('the service refuses a timestamp a few minutes off');
		expect(error.description).toContain('that the Base URL is the address the service signs');
	};

	const skewed = useSandbox({ now: () => Date.now() + 600_000 });
	it.each([
		[
			'wrong secret',
			() => ({ ...credentials, apiSecret: 'not-the-secret' }),
			/x-api-signature does not match\./,
		],
		[
			'unknown key',
			() => ({ ...credentials, apiKey: 'unknown-key' }),
			/The x-api-key is not known to this service\."/,
		],
		// The service says how far off; the node says to check the clock.
		[
			'clock ten minutes off',
			() => skewed.credentials,
			/x-api-timestamp is 60\d seconds behind the server clock/,
		],
	])('%s', async (_name, creds, said) => {
		const error = await failure(listTickets, creds());
		expect401(error);
		expect(error.description).toMatch(new RegExp(`The service said: "${said.source}`));
	});
});

describe('404: names what was not found', () => {
	it.each([
		[
			'ticket get',
			{ resource: 'ticket', operation: 'get', ticketId: byId('tkt_404') },
			'The ticket with ID "tkt_404" was not found',
		],
		[
			'replies of a missing ticket',
			{ resource: 'reply', operation: 'getAll', ticketId: byId('tkt_404'), returnAll: true },
			'The ticket with ID "tkt_404" was not found',
		],
		[
			'customer get',
			{ resource: 'customer', operation: 'get', customerId: byId('cus_404') },
			'The customer with ID "cus_404" was not found',
		],
	])('%s', async (_name, parameters, message) => {
		const error = await failure(parameters);
		expect(error.message).toBe(message);
		expect(error.description).toMatch(
			/^Check the ID, or pick the (ticket|customer) from the list\. The service said: "/,
		);
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
			additionalFields: {
				priority: '__custom__',
				customPriority: 'critical',
				customFieldsJson: '{"id": "tkt_1"}',
			},
		});
		expect(error.message).toBe(
			'The service rejected the data: id: is read-only and is assigned by the service; priority: must be one of low, normal, high, urgent',
		);
		expect(error.description).toMatch(/^Correct the fields named above\. The service said: "/);
		expect(sandbox.log.map((e) => e.status)).toEqual([422]);
	});

	it('a taken e-mail on customer create (no name)', async () => {
		const taken = sandbox.store.listCustomers()[0].email;
		const error = await failure({ resource: 'customer', operation: 'create', email: taken });
		expect(error.message).toMatch(/^The service rejected the data: email: /);
	});
});
