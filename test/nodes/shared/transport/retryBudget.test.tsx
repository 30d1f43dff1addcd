import { sleep, type IDataObject } from 'n8n-workflow';

import { credentialsFor, useSandbox } from '../../../harness';
import { byId, runNode } from '../../supportTicketNode';

// n8n-workflow's `sleep` (the node's only way to wait) returns at once and records each wait: the 60 s pass without waiting.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.fn(async () => {}),
}));

const { sandbox } = useSandbox({ seed: 5 });

beforeEach(() => jest.mocked(sleep).mockClear());

const waitedSeconds = () =>
	Math.ceil(jest.mocked(sleep).mock.calls.reduce((sum, [ms]) => sum + ms, 0) / 1000);

const run = (parameters: IDataObject) => runNode(parameters, credentialsFor(sandbox));

describe('the retry budget runs out on waits of 0 s', () => {
	it('503 with "Retry-After: 0" on every attempt of a read: says the service answered 503 for that long, not that it asked to wait 0 s', async () => {
		sandbox.setFaults({ rate503: 1, retryAfter: 0 });
		const result = await run({ resource: 'ticket', operation: 'get', ticketId: byId('tkt_1') });
		const attempts = sandbox.log.length;
		expect(attempts).toBeGreaterThan(5);
		expect(result.error?.message).toBe(
			`The service answered 503 for ${waitedSeconds()} s (${attempts} attempts)`,
		);
		expect(result.error?.description).toMatch(
			/^Try again later: the node retries a request for at most 60 s\./,
		);
	});

	it('429 with "Retry-After: 0" on every attempt of a create: the same, with the advice for a rate limit', async () => {
		sandbox.setFaults({ rate429: 1, retryAfter: 0 });
		const result = await run({
			resource: 'ticket',
			operation: 'create',
			subject: 'S',
			description: 'D',
			customerEmail: 'budget@example.com',
		});
		const attempts = sandbox.log.length;
		expect(sandbox.log.every((entry) => entry.method === 'POST' && entry.status === 429)).toBe(
			true,
		);
		expect(result.error?.message).toBe(
			`The service answered 429 for ${waitedSeconds()} s (${attempts} attempts)`,
		);
		expect(result.error?.description).toMatch(
			/^Run again later, or lower the pace of the workflow/,
		);
	});
});
