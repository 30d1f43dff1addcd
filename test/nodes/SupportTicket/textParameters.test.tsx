import type { IDataObject } from 'n8n-workflow';

import { itemsWorkflow, runWorkflow, useSandbox } from '../../harness';
import { byId, NODE } from '../supportTicketNode';

// An object or list mapped into a text field would reach the service as "[object Object]" or "a,b": refused before
// any request, naming the field and the item. Numbers and booleans are sent as their text.
const { sandbox, credentials } = useSandbox({ seed: 7 });

/** The input item the expressions read: item 1 is the one with the bad values. */
const good = { subject: 'S', email: 'a@example.com', id: 'tkt_1' };
const input = [good, { obj: { a: 1 }, list: ['a', 'b'], num: 42, bool: true }];

const ticketCreate = {
	resource: 'ticket',
	operation: 'create',
	subject: 'S',
	description: 'D',
	customerEmail: 'a@example.com',
};
const ticketUpdate = { resource: 'ticket', operation: 'update', ticketId: byId('tkt_1') };
const customerUpdate = { resource: 'customer', operation: 'update', customerId: byId('cus_1') };

/** A customer e-mail no other customer has (the service refuses a taken one). */
let customers = 0;
const freshEmail = () => `text-parameters-${++customers}@example.com`;

// One field per way the node reads text: required text, optional fields, choices with a Custom value, IDs, e-mails.
/** [field label, the node's parameters with the mapped value in place, the value item 0 gets instead] */
const fields: Array<[string, (value: string) => IDataObject, () => string]> = [
	['Subject', (v) => ({ ...ticketCreate, subject: v }), () => 'S'],
	['Customer Name', (v) => ({ ...ticketCreate, additionalFields: { customerName: v } }), () => 'N'],
	[
		'Custom Priority',
		(v) => ({ ...ticketCreate, additionalFields: { priority: '__custom__', customPriority: v } }),
		() => 'high',
	],
	[
		'Custom Status',
		(v) => ({ ...ticketCreate, additionalFields: { status: '__custom__', customStatus: v } }),
		() => 'open',
	],
	['Status', (v) => ({ ...ticketUpdate, updateFields: { status: v } }), () => 'open'],
	[
		'Ticket ID',
		(v) => ({ resource: 'reply', operation: 'getAll', ticketId: byId(v), returnAll: true }),
		() => 'tkt_1',
	],
	[
		'Body',
		(v) => ({ resource: 'reply', operation: 'create', ticketId: byId('tkt_1'), body: v }),
		() => 'B',
	],
	['Email', (v) => ({ ...customerUpdate, updateFields: { email: v } }), freshEmail],
	[
		'Customer ID',
		(v) => ({ resource: 'customer', operation: 'get', customerId: byId(v) }),
		() => 'cus_1',
	],
	[
		'Sort By',
		(v) => ({ resource: 'ticket', operation: 'getAll', returnAll: true, options: { sortBy: v } }),
		() => 'created_at',
	],
];

/** Each parameter for item 0 reads its good value, for item 1 the mapped one. */
function mapped(key: string, goodValue: string): string {
	return `={{ $itemIndex === 0 ? ${JSON.stringify(goodValue)} : $json.${key} }}`;
}

async function runWith(parameters: IDataObject) {
	return await runWorkflow(itemsWorkflow(input, NODE, parameters), {
		supportTicketApi: credentials,
	});
}

describe.each([
	['an object', 'obj', 'is an object, not text', '{"a":1}'],
	['a list', 'list', 'is a list (array), not text', '["a","b"]'],
])(
	'%s mapped into a text field is refused before any request, naming the field and the item',
	(_kind, key, problem, shown) => {
		it.each(fields)('%s', async (label, parameters, goodValue) => {
			const result = await runWith(parameters(mapped(key, goodValue())));
			expect(result.error?.message).toBe(`${label} of item 1 ${problem}`);
			expect(result.error).toMatchObject({ name: 'NodeOperationError' });
			expect((result.error as unknown as { context: IDataObject }).context.itemIndex).toBe(1);
			expect(result.error?.description).toContain(shown);
			// Item 0 was sent (one request, or one list call); item 1 never reached the service.
			expect(
				sandbox.log.every(
					(entry) =>
						!JSON.stringify(entry.body ?? '').includes('[object Object]') &&
						!JSON.stringify(entry.body ?? '').includes('a,b'),
				),
			).toBe(true);
			expect(sandbox.log.length).toBeLessThanOrEqual(1);
		});
	},
);

describe('values that are not text but have an obvious text', () => {
	it('an object without toString (e.g. Object.create(null)) is refused with the same message, not a TypeError', async () => {
		const result = await runWith({
			...ticketCreate,
			subject: '={{ $itemIndex === 0 ? "S" : Object.create(null) }}',
		});
		expect(result.error?.message).toBe('Subject of item 1 is an object, not text');
		expect(result.error).toMatchObject({ name: 'NodeOperationError' });
		expect(sandbox.log).toHaveLength(1);
	});

	it('a number or a boolean is sent as its text', async () => {
		const result = await runWith({
			...ticketCreate,
			subject: '={{ $itemIndex === 0 ? "S" : $json.num }}',
			description: '={{ $itemIndex === 0 ? "D" : $json.bool }}',
			additionalFields: { customerName: '={{ $itemIndex === 0 ? "N" : 1.5 }}' },
		});
		expect(result.error).toBeUndefined();
		const sent = sandbox.log.map((entry) => entry.body as IDataObject);
		expect(sent[1]).toMatchObject({
			subject: '42',
			description: 'true',
			customer: { name: '1.5' },
		});
	});

	it('a date and time is sent as ISO 8601 text', async () => {
		const result = await runWith({
			...ticketCreate,
			subject: '={{ $itemIndex === 0 ? "S" : new Date(Date.UTC(2025, 5, 1, 12)) }}',
		});
		expect(result.error).toBeUndefined();
		expect((sandbox.log[1].body as IDataObject).subject).toBe('2025-06-01T12:00:00.000Z');
	});

	it('NaN is refused', async () => {
		const result = await runWith({
			...ticketCreate,
			subject: '={{ $itemIndex === 0 ? "S" : 0 / 0 }}',
		});
		expect(result.error?.message).toBe('Subject of item 1 is NaN, not text');
		expect(sandbox.log).toHaveLength(1);
	});

	it('with Continue On Fail, the bad item becomes an error item and the others are sent', async () => {
		const result = await runWorkflow(
			itemsWorkflow(
				input,
				NODE,
				{ ...ticketCreate, subject: mapped('obj', 'S') },
				{ continueOnFail: true },
			),
			{
				supportTicketApi: credentials,
			},
		);
		expect(result.error).toBeUndefined();
		const out = result.output('Node').map((item) => item.json);
		expect(out[0]).toMatchObject({ subject: 'S' });
		expect(out[1]).toMatchObject({ error: 'Subject of item 1 is an object, not text' });
		expect(sandbox.log).toHaveLength(1);
	});
});
