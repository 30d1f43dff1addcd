import type { IDataObject } from 'n8n-workflow';

import { itemsWorkflow, runWorkflow, useSandbox, type WorkflowRun } from '../../harness';
import { byId, NODE, runNode } from '../supportTicketNode';

// Input the service would misread is refused before any request, naming the field and the item.
const { sandbox, credentials } = useSandbox({ seed: 7 });

const ticketGet = { resource: 'ticket', operation: 'get', ticketId: byId('tkt_1') };
const ticketCreate = {
	resource: 'ticket',
	operation: 'create',
	subject: 'S',
	description: 'D',
	customerEmail: 'a@example.com',
};
const ticketUpdate = { resource: 'ticket', operation: 'update', ticketId: byId('tkt_1') };
const customerUpdate = { resource: 'customer', operation: 'update', customerId: byId('cus_1') };

/** The node's own refusal of item `itemIndex`, after at most `sent` requests of the items before it. */
function expectRefused(result: WorkflowRun, message: string, itemIndex = 0, sent = 0) {
	expect(result.error?.message).toBe(message);
	expect(result.error).toMatchObject({ name: 'NodeOperationError' });
	expect((result.error as unknown as { context: IDataObject }).context.itemIndex).toBe(itemIndex);
	expect(result.error?.description).toEqual(expect.any(String));
	expect(sandbox.log.length).toBeLessThanOrEqual(sent);
}

// n8n checks typed values before the run (WorkflowHasIssuesError), the node values from expressions, per item.
const getTicket = (ticketId: string) => ({ ...ticketGet, ticketId: byId(ticketId) });
const getMany = { resource: 'ticket', operation: 'getAll' };
const rows: Array<[string, IDataObject]> = [
	[
		'The \'Node\' node has issues:\n- Parameter "Subject" is required.',
		{ ...ticketCreate, subject: '' },
	],
	['Subject is empty', { ...ticketCreate, subject: '={{ "  " }}' }],
	['Description is empty', { ...ticketCreate, description: '={{ $json.nothing }}' }],
	[
		'Customer Email "not-an-email" is not a valid e-mail address',
		{ ...ticketCreate, customerEmail: 'not-an-email' },
	],
	[
		'Custom Fields (JSON) is not valid JSON',
		{ ...ticketCreate, additionalFields: { customFieldsJson: '{tags: [vip]}' } },
	],
	[
		'Custom Fields (JSON) must be a JSON object',
		{ ...ticketCreate, additionalFields: { customFieldsJson: '[1,2]' } },
	],
	['Custom Priority is empty', { ...ticketCreate, additionalFields: { priority: '__custom__' } }],
	[
		'Limit must be a whole number of at least 1 (got 0)',
		{ ...getMany, returnAll: false, limit: 0 },
	],
	['Limit must be a whole number of at least 1 (got ten)', { ...getMany, limit: '={{ "ten" }}' }],
	['No ticket was chosen', getTicket('={{ "" }}')],
	// Missing, e.g. a payload without the field.
	['No ticket was chosen', getTicket('={{ $json.data?.id }}')],
	["The 'Node' node has issues:\n- Not a valid ticket ID", getTicket('a/b')],
	['"a/b" is not a valid ticket ID', getTicket('={{ "a/b" }}')],
	[
		'".." is not a valid ticket ID',
		{ resource: 'reply', operation: 'create', ticketId: byId('={{ ".." }}'), body: 'x' },
	],
	[
		'Body is empty',
		{ resource: 'reply', operation: 'create', ticketId: byId('tkt_1'), body: '={{ "" }}' },
	],
	['Nothing to update', { ...ticketUpdate, updateFields: {} }],
	[
		'Email "a@b" is not a valid e-mail address',
		{ resource: 'customer', operation: 'create', email: 'a@b' },
	],
	['Email "x" is not a valid e-mail address', { ...customerUpdate, updateFields: { email: 'x' } }],
];

it.each(rows)('bad input is refused before any request: %s', async (message, parameters) => {
	const result = await runNode(parameters, credentials);
	if (result.error?.name === 'WorkflowHasIssuesError') {
		expect(result.error.message).toBe(message);
		expect(sandbox.log).toHaveLength(0);
	} else expectRefused(result, message);
});

// n8n hands a number parameter an expression's result as it is: "10" is text; n8n's nodes read 10.
it('numbers from expressions as text are read as numbers: Timeout and Concurrent Requests', async () => {
	// Two items, so that Concurrent Requests is read.
	const options = { timeout: '={{ "5000" }}', concurrentRequests: '={{ "200" }}' };
	const parameters = { ...ticketGet, ticketId: byId('={{ $json.id }}'), options };
	const workflow = itemsWorkflow([{ id: 'tkt_1' }, { id: 'tkt_2' }], NODE, parameters);
	const result = await runWorkflow(workflow, { supportTicketApi: credentials });
	expect(result.error).toBeUndefined();
	expect(result.output('Node').map((i) => i.json.id)).toEqual(['tkt_1', 'tkt_2']);
});

// An object or list mapped into a text field would reach the service as "[object Object]" or "a,b".
/** The input item the expressions read: item 1 is the one with the bad values. */
const input = [{}, { obj: { a: 1 }, list: ['a', 'b'] }];

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
	['Email', (v) => ({ ...customerUpdate, updateFields: { email: v } }), freshEmail],
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

async function runWith(parameters: IDataObject, settings = {}) {
	return await runWorkflow(itemsWorkflow(input, NODE, parameters, settings), {
		supportTicketApi: credentials,
	});
}

describe.each([
	['an object', 'obj', 'is an object, not text', '{"a":1}'],
	['a list', 'list', 'is a list (array), not text', '["a","b"]'],
])('%s mapped into a text field', (_kind, key, problem, shown) => {
	it.each(fields)('%s', async (label, parameters, goodValue) => {
		const result = await runWith(parameters(mapped(key, goodValue())));
		// Item 0 was sent (one request, or one list call); item 1 never reached the service.
		expectRefused(result, `${label} of item 1 ${problem}`, 1, 1);
		expect(result.error?.description).toContain(shown);
	});
});

describe('values that are not text', () => {
	it.each([
		['an object without toString', 'Object.create(null)', 'is an object, not text'],
		['NaN', '0 / 0', 'is NaN, not text'],
	])('%s is refused, not sent as a TypeError or "NaN"', async (_name, value, problem) => {
		const result = await runWith({
			...ticketCreate,
			subject: `={{ $itemIndex === 0 ? "S" : ${value} }}`,
		});
		expectRefused(result, `Subject of item 1 ${problem}`, 1, 1);
	});

	it('a number or a boolean is sent as its text, a date as ISO 8601', async () => {
		const result = await runWith({
			...ticketCreate,
			subject: '={{ $itemIndex === 0 ? "S" : 42 }}',
			description: '={{ $itemIndex === 0 ? "D" : true }}',
			additionalFields: { customerName: '={{ $itemIndex === 0 ? "N" : 1.5 }}' },
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.log[1].body).toMatchObject({
			subject: '42',
			description: 'true',
			customer: { name: '1.5' },
		});
		const date = '={{ $itemIndex === 0 ? "S" : new Date(Date.UTC(2025, 5, 1, 12)) }}';
		expect((await runWith({ ...ticketCreate, subject: date })).error).toBeUndefined();
		expect((sandbox.log[3].body as IDataObject).subject).toBe('2025-06-01T12:00:00.000Z');
	});
});

// A number in Custom Fields (JSON) that a JavaScript double cannot carry exactly is refused, not changed. Every
// operation reads Custom Fields through the same check: a create and an update stand for them.
const operations: Array<[string, (json: string) => IDataObject]> = [
	['ticket create', (json) => ({ ...ticketCreate, additionalFields: { customFieldsJson: json } })],
	['customer update', (json) => ({ ...customerUpdate, updateFields: { customFieldsJson: json } })],
];

describe.each(operations)('%s', (_name, parameters) => {
	it.each([
		['{"external_id": 9007199254740993}', '9007199254740993', '9007199254740992'], // above 2^53
		['{"refs": {"ids": [1, -9007199254740995]}}', '-9007199254740995', '-9007199254740996'],
		// More digits than a double holds; too large for a double.
		['{"amount": 0.12345678901234567890}', '0.12345678901234567890', '0.12345678901234568'],
		['{"big": 1e400}', '1e400', 'null'],
	])(
		'Custom Fields %s is refused before any request, naming the number and what it would become',
		async (json, written, becomes) => {
			const result = await runNode(parameters(json), credentials);
			const message = `Custom Fields (JSON) of item 0 has the number ${written}, which would be sent as ${becomes}`;
			expectRefused(result, message);
			expect(result.error?.description).toContain(`"${written}"`);
		},
	);
});

describe('numbers a request carries exactly are sent', () => {
	it.each([
		['the largest safe integer', '9007199254740991', 9007199254740991],
		['2^53 itself', '9007199254740992', 9007199254740992],
		['a decimal', '12.5', 12.5],
		['an exponent', '1e2', 100],
		['trailing zeros', '1.50', 1.5],
		['a big integer written as text', '"9007199254740993"', '9007199254740993'],
		['digits inside a text', '"order 9007199254740993"', 'order 9007199254740993'],
		[
			'digits after an escaped quote inside a text',
			'"say \\"9007199254740993\\" 1e400"',
			'say "9007199254740993" 1e400',
		],
	])('%s', async (_case, literal, sent) => {
		const result = await runNode(operations[0][1](`{"n": ${literal}}`), credentials);
		expect(result.error).toBeUndefined();
		expect((sandbox.log[0].body as IDataObject).n).toBe(sent);
	});
});

// An ID with an invisible character would be sent percent-encoded and answered 404 though it looks right.
const locator = (mode: string, value: string) => ({ __rl: true, mode, value });
const characters: Array<[string, string, string]> = [
	['a zero-width space', '\u200b', 'U+200B'],
	['NUL', '\u0000', 'U+0000'],
	['a right-to-left override (bidi control)', '\u202e', 'U+202E'],
	['a left-to-right mark', '\u200e', 'U+200E'],
	['a byte order mark', '\ufeff', 'U+FEFF'],
	['a lone surrogate', '\ud800', 'U+D800'],
];

const expression = (id: string) => locator('id', `={{ ${JSON.stringify(id)} }}`);
it.each(characters)(
	'an ID with %s: refused before any request, the message shows the character',
	async (_name, character, codePoint) => {
		const ticket = await runNode(
			{ ...ticketGet, ticketId: expression(`tkt_${character}1`) },
			credentials,
		);
		expectRefused(ticket, `"tkt_<${codePoint}>1" is not a valid ticket ID`);
		expect(ticket.error?.description).toContain(`${codePoint}, an invisible or control character`);
		// Chosen in a picker (list mode) by an expression.
		const customerId = { ...expression(`cus_${character}1`), mode: 'list' };
		const customer = await runNode(
			{ resource: 'customer', operation: 'get', customerId },
			credentials,
		);
		expectRefused(customer, `"cus_<${codePoint}>1" is not a valid customer ID`);
		// Typed By ID: n8n marks the field; a lone surrogate, which its pattern cannot single out, the node refuses.
		const ticketId = locator('id', `tkt_${character}1`);
		const typed = await runNode(
			{ resource: 'reply', operation: 'create', ticketId, body: 'x' },
			credentials,
		);
		expect(typed.error?.message).toBe(
			codePoint === 'U+D800'
				? `"tkt_<U+D800>1" is not a valid ticket ID`
				: "The 'Node' node has issues:\n- Not a valid ticket ID",
		);
		expect(sandbox.log).toHaveLength(0);
	},
);

it('a plain ID, and one with letters beyond ASCII, still work', async () => {
	const plain = await runNode(ticketGet, credentials);
	expect(plain.output('Node')[0].json).toMatchObject({ id: 'tkt_1' });
	const accented = await runNode({ ...ticketGet, ticketId: locator('id', 'tkt_é') }, credentials);
	expect(accented.error?.message).toMatch(/tkt_é/); // the service does not know it: a 404 naming it, after one request
	expect(sandbox.log.map((entry) => entry.path)).toEqual([
		'/api/v1/external/tickets/tkt_1',
		`/api/v1/external/tickets/${encodeURIComponent('tkt_é')}`,
	]);
});
