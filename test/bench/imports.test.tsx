import {
	type ImportMode,
	importTickets,
	registerImportNodes,
	runPages,
	TicketTally,
} from '../../bench/imports';
import { isolateUserFolder } from '../harness';
import { startSandbox, type Sandbox } from '../../sandbox';

const TICKETS = 250;
let sandbox: Sandbox;
let credentials: Parameters<typeof importTickets>[1];
const tally = new TicketTally(TICKETS);

beforeAll(async () => {
	isolateUserFolder();
	sandbox = await startSandbox({ seed: TICKETS });
	credentials = {
		supportTicketApi: {
			baseUrl: sandbox.baseUrl,
			apiKey: sandbox.apiKey,
			apiSecret: sandbox.apiSecret,
		},
	};
	await registerImportNodes(tally, credentials);
});
afterAll(async () => sandbox.stop());
beforeEach(() => {
	tally.reset();
	sandbox.clearLog();
});

const listCalls = () =>
	sandbox.log.filter(
		(entry) => entry.method === 'GET' && entry.pathname === '/api/v1/external/tickets',
	);

describe('importing every ticket through the engine, as bench --memory does', () => {
	it.each<[ImportMode, number, number]>([
		['page-per-execution', 3, 3],
		['sub-workflow-per-page', 4, 3],
		['loop-in-one-execution', 1, 3],
		['return-all', 1, 1],
	])(
		'%s writes each of 250 tickets once in 3 calls (%i executions, the reading node ran %i times)',
		async (mode, executions, nodeRuns) => {
			const outcome = await importTickets(mode, credentials, TICKETS);
			expect(tally.read()).toEqual({
				written: TICKETS,
				distinct: TICKETS,
				duplicates: 0,
				unknown: 0,
			});
			expect({ executions: outcome.executions, nodeRuns: outcome.nodeRuns }).toEqual({
				executions,
				nodeRuns,
			});
			expect(listCalls().map((entry) => entry.status)).toEqual([200, 200, 200]);
		},
	);

	it('page per execution carries the cursor: each execution reads the page after the previous one', async () => {
		const outcome = await runPages(credentials, 2);
		expect(outcome).toMatchObject({ executions: 2, finished: false });
		expect(tally.read().distinct).toBe(200);
		const [first, second] = listCalls();
		expect(first.query.cursor).toBeUndefined();
		expect(typeof second.query.cursor).toBe('string');
	});
});

describe('TicketTally', () => {
	it('counts each seeded ticket once and tells duplicates and foreign ids apart', () => {
		const tally = new TicketTally(20);
		for (const id of [
			'tkt_1',
			'tkt_8',
			'tkt_20',
			'tkt_8',
			'tkt_21',
			'tkt_0',
			'tkt_01',
			'rep_3',
			42,
			undefined,
		])
			tally.add(id);
		expect(tally.read()).toEqual({ written: 10, distinct: 3, duplicates: 1, unknown: 6 });
	});
});
