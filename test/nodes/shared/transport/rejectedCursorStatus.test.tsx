import type { IDataObject } from 'n8n-workflow';

import { describeApiError } from '../../../../nodes/shared/transport/describeApiError';
import { chainWorkflow, createPoller, credentialsFor, runWorkflow, singleNodeWorkflow, useSandbox, workflowNode } from '../../../harness';
import { startSandbox } from '../../../../sandbox';

/**
 * The spec does not show how a service rejects an invalid or expired cursor (docs/api.md#paging). Besides 400, a 404,
 * 410 or 422 to a request that carried a cursor, whose error names the cursor, is read as a
 * rejected cursor: the user reads the same message and advice, the poll trigger recovers the same way.
 */
const NODE = 'n8n-nodes-support-ticket.supportTicket';
const { sandbox, credentials } = useSandbox({ seed: 60 });

async function onePage(parameters: IDataObject) {
	return await runWorkflow(singleNodeWorkflow(NODE, { resource: 'ticket', operation: 'getAll', pagination: 'onePage', ...parameters }), {
		supportTicketApi: credentials,
	});
}

describe.each([404, 410, 422] as const)('a cursor rejected with HTTP %i', (status) => {
	beforeEach(() => sandbox.setResponseShape({ rejectedCursorStatus: status }));

	it('a cursor that is not one: the same message and advice as for a 400', async () => {
		const result = await onePage({ cursor: 'not-a-cursor' });
		expect(result.error?.message).toBe('The service rejected the page cursor');
		expect(result.error?.description).toMatch(/^Cursor must be the next_cursor of the previous page, .*; leave it empty to start from the first page\. The service said: "/);
		expect(sandbox.log.map((entry) => [entry.status, entry.errorCode])).toEqual([[status, 'invalid_cursor']]);
	});

	it('a cursor of another query (the page size changed in the loop)', async () => {
		const { next_cursor } = (await onePage({ pageSize: 10 })).output('Node')[0].json;
		const result = await onePage({ pageSize: 20, cursor: next_cursor });
		expect(result.error?.message).toBe('The service rejected the page cursor');
		expect(sandbox.log.map((entry) => entry.errorCode)).toEqual([undefined, 'cursor_mismatch']);
	});
});

it('a 404 for a missing ticket is still "not found", not a cursor problem', async () => {
	sandbox.setResponseShape({ rejectedCursorStatus: 404 });
	const result = await runWorkflow(singleNodeWorkflow(NODE, { resource: 'ticket', operation: 'get', ticketId: { __rl: true, mode: 'id', value: 'tkt_999' } }), {
		supportTicketApi: credentials,
	});
	expect(result.error?.message).toBe('The ticket with ID "tkt_999" was not found');
});

describe('describeApiError: which answers are a rejected cursor', () => {
	const rejected = 'The service rejected the page cursor';
	it.each([
		[410, { error: { code: 'cursor_expired', message: 'Gone' } }],
		[404, { error: { code: 'not_found', message: 'Cursor not found' } }],
		[422, { error: { code: 'validation_failed', message: 'Invalid', details: { fields: { cursor: ['has expired'] } } } }],
		[422, { message: 'The given cursor is invalid.' }],
	])('HTTP %i %j to a request with a cursor', (status, body) => {
		expect(describeApiError(status, body, { cursorFrom: 'previousPage' as const }).message).toBe(rejected);
	});

	it.each([
		['a 404 that names the cursor, to a request without one', 404, { error: { code: 'not_found', message: 'Cursor not found' } }, {}],
		['a 404 that names no cursor, to a request with one (the ticket of a reply list is gone)', 404, { error: { code: 'not_found', message: "ticket 'tkt_5' was not found." } }, { cursorFrom: 'previousPage' as const }],
		['a 422 about other fields', 422, { error: { code: 'validation_failed', message: 'Invalid', details: { fields: { per_page: ['too big'] } } } }, { cursorFrom: 'previousPage' as const }],
		['a 500 that names the cursor', 500, { error: { code: 'internal_error', message: 'cursor store down' } }, { cursorFrom: 'previousPage' as const }],
	])('not for %s', (_name, status, body, context) => {
		expect(describeApiError(status, body, context).message).not.toBe(rejected);
	});

	it('tells a poll trigger that the next poll starts over, an action node to run again from the first page', () => {
		const body = { error: { code: 'invalid_cursor', message: 'The cursor is not valid' } };
		const poll = describeApiError(400, body, { poll: true }).description;
		expect(poll).toMatch(/next poll reads these records again from the newest one/);
		expect(poll).not.toMatch(/run the node/i);
		expect(describeApiError(400, body).description).toMatch(/Run the node again to start from the first page/);
	});
});

it('Poll Trigger: a backlog cursor rejected with 410 is recovered like a 400: read again from the newest, none lost or repeated', async () => {
	const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
	const service = await startSandbox({ seed: 10, now: () => clock.ms, maxSkewSeconds: 10 ** 9 });
	try {
		const trigger = workflowNode('On New', 'n8n-nodes-support-ticket.supportTicketPollTrigger', { event: 'newTicket', options: { maxPagesPerPoll: 1 } });
		const poller = await createPoller(chainWorkflow(trigger), { supportTicketApi: credentialsFor(service) }, 'On New');
		await poller.poll();
		const created = Array.from({ length: 150 }, (_, n) => {
			clock.ms += 10;
			return service.store.createTicket({ subject: `New ${n}`, description: 'd', customer: { email: `new${n}@example.com` } }).id;
		});
		const seen = ((await poller.poll()).items ?? []).map((item) => item.json.id);
		expect(seen).toHaveLength(100);

		service.setResponseShape({ rejectedCursorStatus: 410 });
		service.renewCursorKey();
		const warnings: string[] = [];
		for (let poll = 0; poll < 5 && seen.length < created.length; poll++) {
			const next = await poller.poll();
			warnings.push(...next.warnings);
			seen.push(...(next.items ?? []).map((item) => item.json.id));
		}
		expect(warnings).toEqual([expect.stringMatching(/rejected the saved page cursor/)]);
		expect(service.log.filter((entry) => entry.status === 410)).toHaveLength(1);
		expect(seen.sort()).toEqual([...created].sort());
	} finally {
		await service.stop();
	}
});
