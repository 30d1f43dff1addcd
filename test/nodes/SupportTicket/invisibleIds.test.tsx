import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../../harness';
import { runNode } from '../supportTicketNode';

// An ID with an invisible character would be sent percent-encoded and answered 404 though it looks right: refused
// before any request, showing where the character is.
const { sandbox, credentials } = useSandbox({ seed: 3 });

const locator = (mode: string, value: string) => ({ __rl: true, mode, value });

const characters: Array<[string, string, string]> = [
	['a zero-width space', '\u200b', 'U+200B'],
	['NUL', '\u0000', 'U+0000'],
	['a right-to-left override (bidi control)', '\u202e', 'U+202E'],
	['a left-to-right mark', '\u200e', 'U+200E'],
	['a byte order mark', '\ufeff', 'U+FEFF'],
	['a lone surrogate', '\ud800', 'U+D800'],
];

const run = (parameters: IDataObject) => runNode(parameters, credentials);

describe.each(characters)('an ID with %s', (_name, character, codePoint) => {
	it('from an expression: refused before any request, the message shows the character', async () => {
		const value = `={{ ${JSON.stringify(`tkt_${character}1`)} }}`;
		const result = await run({
			resource: 'ticket',
			operation: 'get',
			ticketId: locator('id', value),
		});
		expect(result.error?.message).toBe(`"tkt_<${codePoint}>1" is not a valid ticket ID`);
		expect(result.error).toMatchObject({ name: 'NodeOperationError' });
		expect(result.error?.description).toContain(`${codePoint}, an invisible or control character`);
		expect(sandbox.log).toHaveLength(0);
	});

	it('chosen in a customer picker (list mode) by an expression: refused the same way', async () => {
		const value = `={{ ${JSON.stringify(`cus_${character}1`)} }}`;
		const result = await run({
			resource: 'customer',
			operation: 'get',
			customerId: locator('list', value),
		});
		expect(result.error?.message).toBe(`"cus_<${codePoint}>1" is not a valid customer ID`);
		expect(sandbox.log).toHaveLength(0);
	});

	it('typed By ID: refused before the run (n8n marks the field; a lone surrogate, which its pattern cannot single out, the node refuses)', async () => {
		const result = await run({
			resource: 'reply',
			operation: 'create',
			ticketId: locator('id', `tkt_${character}1`),
			body: 'x',
		});
		expect(result.error?.message).toBe(
			codePoint === 'U+D800'
				? `"tkt_<U+D800>1" is not a valid ticket ID`
				: "The 'Node' node has issues:\n- Not a valid ticket ID",
		);
		expect(sandbox.log).toHaveLength(0);
	});
});

it('a plain ID, and one with letters beyond ASCII, still work', async () => {
	const plain = await run({
		resource: 'ticket',
		operation: 'get',
		ticketId: locator('id', 'tkt_1'),
	});
	expect(plain.output('Node')[0].json).toMatchObject({ id: 'tkt_1' });
	const accented = await run({
		resource: 'ticket',
		operation: 'get',
		ticketId: locator('id', 'tkt_é'),
	});
	expect(accented.error?.message).toMatch(/tkt_é/); // the service does not know it: a 404 naming it, after one request
	expect(sandbox.log.map((entry) => entry.path)).toEqual([
		'/api/v1/external/tickets/tkt_1',
		`/api/v1/external/tickets/${encodeURIComponent('tkt_é')}`,
	]);
});
