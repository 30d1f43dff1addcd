import type { IDataObject } from 'n8n-workflow';

import { itemsWorkflow, runWorkflow, useSandbox } from '../../harness';
import { byId, NODE, runNode } from '../supportTicketNode';

const { sandbox, credentials } = useSandbox({ seed: 5 });

const ticketGet = { resource: 'ticket', operation: 'get', ticketId: byId('tkt_1') };
const ticketCreate = {
	resource: 'ticket',
	operation: 'create',
	subject: 'S',
	description: 'D',
	customerEmail: 'a@example.com',
};

// n8n checks typed values before the run, the node values from expressions, per item.
const rows: Array<[string, IDataObject, string]> = [
	[
		'subject typed empty (n8n checks)',
		{ ...ticketCreate, subject: '' },
		'The \'Node\' node has issues:\n- Parameter "Subject" is required.',
	],
	[
		'subject from an expression, blank',
		{ ...ticketCreate, subject: '={{ "  " }}' },
		'Subject is empty',
	],
	[
		'description from an expression, missing',
		{ ...ticketCreate, description: '={{ $json.nothing }}' },
		'Description is empty',
	],
	[
		'malformed customer e-mail',
		{ ...ticketCreate, customerEmail: 'not-an-email' },
		'Customer Email "not-an-email" is not a valid e-mail address',
	],
	[
		'custom fields not JSON',
		{ ...ticketCreate, additionalFields: { customFieldsJson: '{tags: [vip]}' } },
		'Custom Fields (JSON) is not valid JSON',
	],
	[
		'custom fields an array',
		{ ...ticketCreate, additionalFields: { customFieldsJson: '[1,2]' } },
		'Custom Fields (JSON) must be a JSON object',
	],
	[
		'custom priority left empty',
		{ ...ticketCreate, additionalFields: { priority: '__custom__' } },
		'Custom Priority is empty',
	],
	[
		'limit 0',
		{ resource: 'ticket', operation: 'getAll', returnAll: false, limit: 0 },
		'Limit must be a whole number of at least 1 (got 0)',
	],
	[
		'limit from an expression, not a number',
		{ resource: 'ticket', operation: 'getAll', limit: '={{ "ten" }}' },
		'Limit must be a whole number of at least 1 (got ten)',
	],
	[
		'timeout from an expression, not a number',
		{ ...ticketGet, options: { timeout: '={{ "1 min" }}' } },
		'Timeout must be a whole number of milliseconds from 1 to 3600000, not "1 min"',
	],
	[
		'no ticket from an expression',
		{ resource: 'ticket', operation: 'get', ticketId: byId('={{ "" }}') },
		'No ticket was chosen',
	],
	[
		'no ticket from an expression, missing (e.g. a payload without the field)',
		{ resource: 'ticket', operation: 'get', ticketId: byId('={{ $json.data?.id }}') },
		'No ticket was chosen',
	],
	[
		'ticket id typed with a slash (n8n checks)',
		{ resource: 'ticket', operation: 'get', ticketId: byId('a/b') },
		"The 'Node' node has issues:\n- Not a valid ticket ID",
	],
	[
		'ticket id from an expression with a slash',
		{ resource: 'ticket', operation: 'get', ticketId: byId('={{ "a/b" }}') },
		'"a/b" is not a valid ticket ID',
	],
	[
		'ticket id from an expression, ".."',
		{ resource: 'reply', operation: 'create', ticketId: byId('={{ ".." }}'), body: 'x' },
		'".." is not a valid ticket ID',
	],
	[
		'reply body from an expression, empty',
		{ resource: 'reply', operation: 'create', ticketId: byId('tkt_1'), body: '={{ "" }}' },
		'Body is empty',
	],
	[
		'update with nothing',
		{ resource: 'ticket', operation: 'update', ticketId: byId('tkt_1'), updateFields: {} },
		'Nothing to update',
	],
	[
		'customer e-mail malformed',
		{ resource: 'customer', operation: 'create', email: 'a@b' },
		'Email "a@b" is not a valid e-mail address',
	],
	[
		'customer update e-mail malformed',
		{
			resource: 'customer',
			operation: 'update',
			customerId: byId('cus_1'),
			updateFields: { email: 'x' },
		},
		'Email "x" is not a valid e-mail address',
	],
];

describe('bad input is refused before any request', () => {
	it.each(rows)('%s', async (_name, parameters, message) => {
		const result = await runNode(parameters, credentials);
		expect(result.error?.message).toBe(message);
		if (result.error?.name !== 'WorkflowHasIssuesError') {
			expect(result.error).toMatchObject({ name: 'NodeOperationError' });
			expect((result.error as unknown as { context: IDataObject }).context.itemIndex).toBe(0);
			expect(result.error?.description).toEqual(expect.any(String));
		}
		expect(sandbox.log).toHaveLength(0);
	});
});

// n8n hands a number parameter an expression's result as it is: "10" is text; n8n's nodes read 10.
describe('numbers from expressions as text are read as numbers', () => {
	it('Limit', async () => {
		const parameters = { resource: 'ticket', operation: 'getAll', limit: '={{ "3" }}' };
		const result = await runNode(parameters, credentials);
		expect(result.error).toBeUndefined();
		expect(result.output('Node')).toHaveLength(3);
		expect(sandbox.log.map((e) => e.query.per_page)).toEqual(['3']);
	});

	it('Timeout and Concurrent Requests', async () => {
		// Two items, so that Concurrent Requests is read.
		const options = { timeout: '={{ "5000" }}', concurrentRequests: '={{ "200" }}' };
		const parameters = { ...ticketGet, ticketId: byId('={{ $json.id }}'), options };
		const workflow = itemsWorkflow([{ id: 'tkt_1' }, { id: 'tkt_2' }], NODE, parameters);
		const result = await runWorkflow(workflow, { supportTicketApi: credentials });
		expect(result.error).toBeUndefined();
		expect(result.output('Node').map((i) => i.json.id)).toEqual(['tkt_1', 'tkt_2']);
	});
});
