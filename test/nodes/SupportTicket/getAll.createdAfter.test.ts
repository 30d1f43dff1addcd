import { readFileSync } from 'node:fs';

import type { ICredentialDataDecryptedObject, IDataObject, IWorkflowBase } from 'n8n-workflow';

import { repoPath, runWorkflow, singleNodeWorkflow, type WorkflowJson } from '../../harness';
import { startSandbox, type Sandbox } from '../../sandbox';

/**
 * Ticket Get Many, option "Created After": in the default order (newest first) reading stops at
 * the first ticket not newer than the date, so an incremental import costs the pages holding new
 * tickets plus at most one. Any other order is refused before a request is made.
 */
const NODE = 'n8n-nodes-support-ticket.supportTicket';
const TICKETS = 1050;
let sandbox: Sandbox;
let credentials: ICredentialDataDecryptedObject;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: TICKETS });
	credentials = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret };
});
afterAll(async () => sandbox.stop());
beforeEach(() => sandbox.clearLog());

async function getMany(parameters: IDataObject) {
	return await runWorkflow(singleNodeWorkflow(NODE, { resource: 'ticket', operation: 'getAll', ...parameters }), {
		supportTicketApi: credentials,
	});
}

const newestFirst = () => sandbox.store.listTickets();
const listCalls = () => sandbox.countCalls({ method: 'GET', pathname: '/api/v1/external/tickets' });
const newerThan = (iso: string) => newestFirst().filter((t) => Date.parse(t.created_at) > Date.parse(iso));

describe('Return All with Created After', () => {
	// The date is the created_at of the ticket at this position (newest first), so the tickets
	// before it are the newer ones (fewer where timestamps are shared: equal is not "after").
	it.each([0, 1, 30, 99, 100, 101, 150, 200, 250, 1049])(
		'date of ticket #%i: exactly the newer tickets, in pages holding them + at most one call',
		async (position) => {
			const after = newestFirst()[position].created_at;
			const expected = newerThan(after).map((t) => t.id);
			const result = await getMany({ returnAll: true, options: { createdAfter: after } });
			expect(result.error).toBeUndefined();
			expect(result.output('Node').map((i) => i.json.id)).toEqual(expected);
			const pagesHoldingNewer = Math.ceil(expected.length / 100);
			expect(listCalls()).toBeGreaterThanOrEqual(Math.max(1, pagesHoldingNewer));
			expect(listCalls()).toBeLessThanOrEqual(pagesHoldingNewer + 1);
			// Precisely: one more page only when the newer tickets fill their pages to the end.
			expect(listCalls()).toBe(Math.floor(expected.length / 100) + 1);
		},
	);

	it('a date before every ticket reads everything in ⌈n/100⌉ calls; none after the newest reads one page', async () => {
		const all = await getMany({ returnAll: true, options: { createdAfter: '2000-01-01T00:00:00Z' } });
		expect(all.output('Node')).toHaveLength(TICKETS);
		expect(listCalls()).toBe(Math.ceil(TICKETS / 100));

		sandbox.clearLog();
		const none = await getMany({ returnAll: true, options: { createdAfter: newestFirst()[0].created_at } });
		expect(none.output('Node')).toHaveLength(0);
		expect(listCalls()).toBe(1);
	});

	it('with a Limit: stops at whichever comes first', async () => {
		const after = newestFirst()[250].created_at;
		const result = await getMany({ limit: 10, options: { createdAfter: after } });
		expect(result.output('Node').map((i) => i.json.id)).toEqual(newerThan(after).slice(0, 10).map((t) => t.id));
		expect(listCalls()).toBe(1);
	});

	it('with filters: the newer tickets that match', async () => {
		const after = newestFirst()[500].created_at;
		const result = await getMany({ returnAll: true, filters: { status: 'open' }, options: { createdAfter: after } });
		expect(result.output('Node').map((i) => i.json.id)).toEqual(newerThan(after).filter((t) => t.status === 'open').map((t) => t.id));
	});

	it('in One Page per Run: the page ends at the first older ticket and says there is no more', async () => {
		const after = newestFirst()[130].created_at;
		const first = (await getMany({ pagination: 'onePage', pageSize: 100, options: { createdAfter: after } })).output('Node')[0].json;
		expect(first).toMatchObject({ count: 100, has_more: true });
		const second = (await getMany({ pagination: 'onePage', pageSize: 100, cursor: first.next_cursor, options: { createdAfter: after } })).output('Node')[0].json;
		const expected = newerThan(after).map((t) => t.id);
		expect([...(first.data as IDataObject[]), ...(second.data as IDataObject[])].map((t) => t.id)).toEqual(expected);
		expect(second).toMatchObject({ count: expected.length - 100, has_more: false, next_cursor: null });
	});

	it.each([
		['ISO with zone', (iso: string) => iso],
		['without zone: read as UTC', (iso: string) => iso.replace(/Z$/, '')],
		['an expression giving a Luxon DateTime', (iso: string) => `={{ DateTime.fromISO('${iso}') }}`],
		['an expression giving a JavaScript Date', (iso: string) => `={{ new Date('${iso}') }}`],
	])('the date as %s', async (_name, form) => {
		const after = newestFirst()[40].created_at;
		const result = await getMany({ returnAll: true, options: { createdAfter: form(after) } });
		expect(result.error).toBeUndefined();
		expect(result.output('Node').map((i) => i.json.id)).toEqual(newerThan(after).map((t) => t.id));
	});

	it('an empty date (e.g. no watermark yet) means no limit', async () => {
		const result = await getMany({ returnAll: true, options: { createdAfter: '={{ $json.nothing ?? "" }}' } });
		expect(result.output('Node')).toHaveLength(TICKETS);
	});
});

describe('refused before any request', () => {
	it.each([
		['oldest first', { sortOrder: 'asc' }],
		['by updated_at', { sortBy: 'updated_at' }],
		['by updated_at, newest first', { sortBy: 'updated_at', sortOrder: 'desc' }],
	])('Created After with another order: %s', async (_name, sort) => {
		const result = await getMany({ returnAll: true, options: { createdAfter: '2025-01-01T00:00:00Z', ...sort } });
		expect(result.error?.message).toBe('Created After needs the newest-first order');
		expect(result.error?.description).toContain('Remove the Sort By and Sort Order options (or set Created At, Descending), or remove Created After.');
		expect(sandbox.log).toHaveLength(0);
	});

	it('explicit Created At, Descending is the default order and is accepted', async () => {
		const after = newestFirst()[5].created_at;
		const result = await getMany({ returnAll: true, options: { createdAfter: after, sortBy: 'created_at', sortOrder: 'desc' } });
		expect(result.output('Node').map((i) => i.json.id)).toEqual(newerThan(after).map((t) => t.id));
	});

	it('a text that is not a date', async () => {
		const result = await getMany({ returnAll: true, options: { createdAfter: '={{ "last tuesday" }}' } });
		expect(result.error?.message).toBe('Created After "last tuesday" is not a date and time');
		expect(result.error?.description).toContain('ISO 8601');
		expect(sandbox.log).toHaveLength(0);
	});
});

describe('examples/incremental-import.json', () => {
	const example = () => JSON.parse(readFileSync(repoPath('examples', 'incremental-import.json'), 'utf8')) as WorkflowJson;

	it('two runs with tickets created between them import each ticket exactly once; a run with nothing new imports nothing', async () => {
		const fresh = await startSandbox({ seed: 230 });
		const creds = { supportTicketApi: { baseUrl: fresh.baseUrl, apiKey: fresh.apiKey, apiSecret: fresh.apiSecret } };
		// One static data object across runs, as n8n keeps it with the saved workflow.
		const staticData: IWorkflowBase['staticData'] = {};
		const imported: string[] = [];
		const importRun = async () => {
			fresh.clearLog();
			const result = await runWorkflow({ ...example(), staticData }, creds);
			expect(result.error).toBeUndefined();
			const ids = result.output('Get New Tickets').map((i) => i.json.id as string);
			imported.push(...ids);
			return { ids, calls: fresh.countCalls({ method: 'GET', pathname: '/api/v1/external/tickets' }) };
		};
		try {
			const first = await importRun();
			expect(first.ids).toHaveLength(230);
			expect(first.calls).toBe(3);
			expect(staticData).toEqual({ global: { newestCreatedAt: fresh.store.listTickets()[0].created_at } });

			for (let i = 0; i < 40; i++) fresh.store.createTicket({ subject: `New ${i}`, description: 'After run 1', customer: { email: `n${i}@example.com` } });
			const second = await importRun();
			expect(second.ids).toEqual(fresh.store.listTickets().slice(0, 40).map((t) => t.id));
			expect(second.calls).toBe(1);

			const third = await importRun();
			expect(third.ids).toEqual([]);
			expect(third.calls).toBe(1);

			expect(imported.sort()).toEqual(fresh.store.listTickets().map((t) => t.id).sort());
			expect(new Set(imported).size).toBe(270);
		} finally {
			await fresh.stop();
		}
	});
});
