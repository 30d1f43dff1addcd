import type { IDataObject } from 'n8n-workflow';

import { describeApiError } from '../../../../nodes/shared/transport/describeApiError';
import { useSandbox } from '../../../harness';
import { runNode } from '../../supportTicketNode';

// The spec does not show how a service rejects a cursor (docs/api.md#paging): a 404, 410 or 422 naming it reads as a 400.
// The poll trigger's recovery from a rejected cursor: SupportTicketPollTrigger.test.tsx (the same isCursorRejected).
const { sandbox, credentials } = useSandbox({ seed: 60 });

const onePage = (parameters: IDataObject) =>
	runNode(
		{ resource: 'ticket', operation: 'getAll', pagination: 'onePage', ...parameters },
		credentials,
	);

describe.each([400, 404, 410, 422] as const)('a cursor rejected with HTTP %i', (status) => {
	beforeEach(() => sandbox.setResponseShape({ rejectedCursorStatus: status }));

	it('a cursor that is not one: what the user reads', async () => {
		const result = await onePage({ cursor: 'not-a-cursor' });
		expect(result.error?.message).toBe('The service rejected the page cursor');
		expect(result.error?.description).toMatch(
			/^Cursor must be the next_cursor of the previous page, with the same filters, sort and page size \(cursors may expire\); leave it empty to start from the first page\. The service said: "/,
		);
		expect(sandbox.log.map((entry) => [entry.status, entry.errorCode])).toEqual([
			[status, 'invalid_cursor'],
		]);
	});

	it('a cursor of another query (the page size changed in the loop)', async () => {
		const { next_cursor } = (await onePage({ pageSize: 10 })).output('Node')[0].json;
		const result = await onePage({ pageSize: 20, cursor: next_cursor });
		expect(result.error?.message).toBe('The service rejected the page cursor');
		expect(sandbox.log.map((entry) => entry.errorCode)).toEqual([undefined, 'cursor_mismatch']);
	});
});

it('Pages per Run: a cursor given within the run, then refused: what a new run does', async () => {
	let answered = 0;
	// A restart between page 1 and 2: the cursor page 1 gave out is refused.
	sandbox.setAnswerGate(() => {
		if (++answered === 1) sandbox.renewCursorKey();
		return undefined;
	});
	try {
		const result = await onePage({ pageSize: 10, pagesPerRun: 3 });
		expect(result.error?.message).toBe('The service rejected the page cursor');
		const description = result.error?.description ?? '';
		expect(description).toMatch(/^Page 2 of this run, after 10 tickets; nothing of this run/);
		expect(description).toContain('a new run starts again from Cursor. The service refused');
		expect(description).toContain(
			'If a new run is refused too, clear Cursor to start from the first',
		);
		expect(description).not.toContain('Run the node again to start from the first page');
		expect(sandbox.log.map((entry) => entry.status)).toEqual([200, 400]);
	} finally {
		sandbox.setAnswerGate(undefined);
	}
});

describe('describeApiError: which answers are a rejected cursor', () => {
	const rejected = 'The service rejected the page cursor';
	const withCursor = { cursorFrom: 'previousPage' } as const;
	const apiError = (code: string, message: string, fields?: Record<string, string[]>) => ({
		error: { code, message, ...(fields && { details: { fields } }) },
	});
	it.each([
		[410, apiError('cursor_expired', 'Gone')],
		[404, apiError('not_found', 'Cursor not found')],
		[422, apiError('validation_failed', 'Invalid', { cursor: ['has expired'] })],
		[422, { message: 'The given cursor is invalid.' }],
	])('HTTP %i %j to a request with a cursor', (status, body) => {
		expect(describeApiError(status, body, withCursor).message).toBe(rejected);
	});

	it.each([
		['a 404 that names the cursor, to a request without one', 404, 'Cursor not found', {}],
		[
			'a 404 that names no cursor, to a request with one (the ticket of a reply list is gone)',
			404,
			"ticket 'tkt_5' was not found.",
			withCursor,
		],
		['a 422 about other fields', 422, 'Invalid', withCursor],
		['a 500 that names the cursor', 500, 'cursor store down', withCursor],
	])('not for %s', (_name, status, message, context) => {
		const body =
			status === 422
				? apiError('validation_failed', message, { per_page: ['too big'] })
				: apiError(status === 404 ? 'not_found' : 'internal_error', message);
		expect(describeApiError(status, body, context).message).not.toBe(rejected);
	});

	it('what comes next: the next poll, Return All from the first page', () => {
		const body = { error: { code: 'invalid_cursor', message: 'The cursor is not valid' } };
		const poll = describeApiError(400, body, { poll: true }).description;
		expect(poll).toMatch(/next poll reads these records again from the newest one/);
		expect(poll).not.toMatch(/run the node/i);
		expect(describeApiError(400, body).description).toMatch(
			/Run the node again to start from the first page/,
		);
	});
});
