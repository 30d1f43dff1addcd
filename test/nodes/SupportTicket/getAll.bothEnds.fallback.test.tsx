import { useSandbox } from '../../harness';
import { byId } from '../supportTicketNode';
import {
	BOTH_ENDS,
	countListRounds,
	expectEachOnce,
	oldestFirstCalls,
	readList,
	useLoggedWarnings,
	type Paging,
} from './listRounds';

// Where the service does not read a list oldest first, Read From Both Ends reads it as one chain.
const REPLIES = 250;

const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
const fixture = useSandbox({ seed: 1050, now: () => clock.ms, maxSkewSeconds: 10 ** 9 });
const { sandbox } = fixture;
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

const read = (resource: keyof typeof lists, paging: Paging, options = {}) => {
	const { path, parameters } = lists[resource]();
	return readList(fixture, paging, { resource, ...parameters, options }, `/api/v1/external${path}`);
};

describe.each(['Return All', 'One Page per Run'] as const)('%s from both ends', (paging) => {
	it.each([
		['ticket', 'ignores it', { ignoreSortBy: true }],
		['customer', 'refuses it (400)', { pageListSort: undefined }],
		['customer', 'ignores it', { pageListSort: 'ignore' as const }],
		['reply', 'refuses it (400)', { pageListSort: undefined }],
		['reply', 'ignores it', { pageListSort: 'ignore' as const }],
	] as const)(
		'a %s list of a service that %s: one chain, one log line, one call more',
		async (resource, _how, quirks) => {
			Object.assign(sandbox.store.listQuirks, quirks);
			const oneChain = await read(resource, paging);
			const bothEnds = await read(resource, paging, BOTH_ENDS);
			expect(bothEnds.ids).toEqual(oneChain.ids);
			expect(bothEnds.calls).toBe(oneChain.calls + 1);
			expect(oldestFirstCalls(sandbox)).toHaveLength(1);
			expect(warnings).toEqual([expect.stringMatching(/did not come back oldest first|refused/)]);
			// Tickets, which it does read oldest first, are read from both ends still.
			warnings.length = 0;
			if (resource !== 'ticket')
				expectEachOnce(
					(await readList(fixture, paging, { options: BOTH_ENDS })).ids,
					sandbox.store.listTickets().map((t) => t.id),
				);
			expect(warnings).toEqual([]);
		},
	);
});

it.each(['customer', 'reply'] as const)(
	'the %s list of a service that honours sort=asc there too: the same items as one chain, in 2 round trips instead of 3',
	async (resource) => {
		sandbox.store.listQuirks.pageListSort = 'honour';
		const oneChain = await read(resource, 'Return All');
		expect(oneChain.calls).toBe(3);
		const rounds = countListRounds(sandbox);
		const bothEnds = await read(resource, 'Return All', BOTH_ENDS);
		expect(bothEnds.ids).toEqual(oneChain.ids);
		expect(rounds).toEqual([1, 2]);
		expect(bothEnds.calls).toBe(3);
		expect(warnings).toEqual([]);
	},
);
