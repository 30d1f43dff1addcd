import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../../harness';
import { byId, runNode } from '../supportTicketNode';

// A number in Custom Fields (JSON) the body (JavaScript doubles) cannot carry exactly is refused, not changed:
// 9007199254740993 would reach the service as 9007199254740992. Every operation reads Custom Fields through the same
// check: a create and an update stand for them.
const { sandbox, credentials } = useSandbox({ seed: 4 });

const operations: Array<[string, (json: string) => IDataObject]> = [
	[
		'ticket create',
		(json) => ({
			resource: 'ticket',
			operation: 'create',
			subject: 'S',
			description: 'D',
			customerEmail: 'a@example.com',
			additionalFields: { customFieldsJson: json },
		}),
	],
	[
		'customer update',
		(json) => ({
			resource: 'customer',
			operation: 'update',
			customerId: byId('cus_1'),
			updateFields: { customFieldsJson: json },
		}),
	],
];

const run = (parameters: IDataObject) => runNode(parameters, credentials);

describe.each(operations)('%s', (_name, parameters) => {
	it.each([
		[
			'an integer above 2^53',
			'{"external_id": 9007199254740993}',
			'9007199254740993',
			'9007199254740992',
		],
		[
			'a negative one, nested in a list',
			'{"refs": {"ids": [1, -9007199254740995]}}',
			'-9007199254740995',
			'-9007199254740996',
		],
		[
			'a decimal with more digits than a double holds',
			'{"amount": 0.12345678901234567890}',
			'0.12345678901234567890',
			'0.12345678901234568',
		],
		['a number too large for a double', '{"big": 1e400}', '1e400', 'null'],
	])(
		'%s is refused before any request, naming the number and what it would become',
		async (_case, json, written, becomes) => {
			const result = await run(parameters(json));
			expect(result.error?.message).toBe(
				`Custom Fields (JSON) of item 0 has the number ${written}, which would be sent as ${becomes}`,
			);
			expect(result.error).toMatchObject({ name: 'NodeOperationError' });
			expect(result.error?.description).toContain(`"${written}"`);
			expect(sandbox.log).toHaveLength(0);
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
		const result = await run(operations[0][1](`{"n": ${literal}}`));
		expect(result.error).toBeUndefined();
		expect((sandbox.log[0].body as IDataObject).n).toBe(sent);
	});
});
