import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../../harness';
import { byId, runNode } from '../supportTicketNode';
import { countListRounds, oldestFirstCalls, useLoggedWarnings } from './listRounds';

// Where the service does not read a list oldest first, Read From Both Ends reads it as one chain.
const BOTH_ENDS = { readFromBothEnds: true };
const REPLIES = 250;

const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
const { sandbox, credentials } = useSandbox({
	seed: 1050,
	now: () => clock.ms,
	maxSkewSeconds: 10 ** 9,
});
const warnings = useLoggedWarnings();
let ticketId: string;
beforeAll(() => {
	ticketId = sandbox.store.listTickets()[0].id;
	for (let n = 0; n < REPLIES; n++) {
		clock.ms += 1;
		sandbox.store.createReply(ticketId, { body: `Reply ${n}` });
	}
});
afterEach(() => {
	sandbox.store.listQuirks = {};
	sandbox.setAnswerGate(undefined);
});

const lists = {
	ticket: () => ({ path: '/tickets', parameters: {} }),
	customer: () => ({ path: '/customers', parameters: {} }),
	reply: () => ({ path: `/tickets/${ticketId}/replies`, parameters: { ticketId: byId(ticketId) } }),
};

/** Return All of `resource`: its items and the calls to its list (refused ones too). */
async function readAll(resource: keyof typeof lists, options: IDataObject = {}) {
	const { path, parameters } = lists[resource]();
	sandbox.clearLog();
	const result = await runNode(
		{ resource, operation: 'getAll', returnAll: true, ...parameters, options },
		credentials,
	);
	if (result.error) throw result.error;
	const items = result.output('Node').map((item) => item.json);
	return { items, calls: sandbox.countCalls({ pathname: `/api/v1/external${path}` }) };
}

describe('a service that ignores sort=asc on the ticket list', () => {
	it('one chain: the same items, one log line, one call more', async () => {
		sandbox.store.listQuirks.ignoreSortBy = true;
		const oneChain = await readAll('ticket');
		const bothEnds = await readAll('ticket', BOTH_ENDS);
		expect(bothEnds.items).toEqual(oneChain.items);
		expect(bothEnds.calls).toBe(oneChain.calls + 1);
		expect(oldestFirstCalls(sandbox)).toHaveLength(1);
		expect(warnings).toEqual([expect.stringMatching(/oldest first/)]);
	});
});

describe('customers and replies of a service that honours sort=asc only for tickets', () => {
	it.each([
		['customer', 'refuses it (400)', undefined],
		['customer', 'ignores it', 'ignore'],
		['reply', 'refuses it (400)', undefined],
		['reply', 'ignores it', 'ignore'],
	] as const)(
		'a %s list that %s: one chain, one log line, one call more',
		async (resource, _how, quirk) => {
			sandbox.store.listQuirks.pageListSort = quirk;
			const oneChain = await readAll(resource);
			expect(oneChain.calls).toBe(3);
			const bothEnds = await readAll(resource, BOTH_ENDS);
			expect(bothEnds.items).toEqual(oneChain.items);
			expect(bothEnds.calls).toBe(oneChain.calls + 1);
			expect(oldestFirstCalls(sandbox)).toHaveLength(1);
			expect(warnings).toEqual([expect.stringMatching(/oldest first/)]);
		},
	);
});

describe('customers and replies of a service that honours sort=asc there too', () => {
	it.each(['customer', 'reply'] as const)(
		'the %s list from both ends: the same items as one chain, in 2 round trips instead of 3',
		async (resource) => {
			sandbox.store.listQuirks.pageListSort = 'honour';
			const oneChain = await readAll(resource);
			expect(oneChain.calls).toBe(3);
			const rounds = countListRounds(sandbox);
			const bothEnds = await readAll(resource, BOTH_ENDS);
			expect(bothEnds.items).toEqual(oneChain.items);
			expect(rounds).toEqual([1, 2]);
			expect(bothEnds.calls).toBe(3);
			expect(warnings).toEqual([]);
		},
	);
});
