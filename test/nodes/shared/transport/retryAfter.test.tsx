import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, useSandbox } from '../../../harness';
import { startRawServer, type RawServer } from '../../../harness/misbehavingProxy';
import { byId, runNode } from '../../supportTicketNode';

// The node waits at least what Retry-After asks, longer than its first backoff (at most 500 ms), so the gap shows the
// rule applied; only lower bounds of time are asserted, they cannot flake.
const { sandbox } = useSandbox({ seed: 5 });

const run = (parameters: IDataObject, baseUrl = sandbox.baseUrl) =>
	runNode(parameters, credentialsFor(sandbox, baseUrl));

const getTicket = () => ({ resource: 'ticket', operation: 'get', ticketId: byId('tkt_1') });
const gapMs = () => sandbox.log[1].startedAt - sandbox.log[0].startedAt;

describe('Retry-After is honoured', () => {
	// Reading seconds and HTTP dates (against the answer's Date header): retryPolicy.test.tsx.
	it.each([429, 503] as const)(
		'for a create: a %i with Retry-After (the service refused it) is repeated after the wait, and makes one ticket',
		async (status) => {
			const before = sandbox.store.ticketCount;
			sandbox.setFaults({ next: [status], retryAfter: 1 });
			const result = await run({
				resource: 'ticket',
				operation: 'create',
				subject: 'Waited',
				description: 'D',
				customerEmail: `w${status}@example.com`,
			});
			expect(result.error).toBeUndefined();
			expect(sandbox.log.map((e) => `${e.method} ${e.status}`)).toEqual([
				`POST ${status}`,
				'POST 201',
			]);
			expect(gapMs()).toBeGreaterThanOrEqual(1000);
			expect(sandbox.store.ticketCount).toBe(before + 1);
		},
	);
});

describe('a wait longer than the node waits on its own ends the request at once', () => {
	it('"Retry-After: 120" (seconds): one request, and the message says how long the service asked for', async () => {
		sandbox.setFaults({ next: [429], retryAfter: 120 });
		const result = await run(getTicket());
		expect(sandbox.log).toHaveLength(1);
		expect(result.error?.message).toBe(
			'The service is rate limiting requests (HTTP 429) and asked to wait 120 s',
		);
		expect(result.error?.description).toMatch(
			/^The node waits at most 60 s per request: run again after that, or lower the pace of the workflow/,
		);
	});

	describe('an HTTP date two hours ahead', () => {
		let server: RawServer;
		// The sandbox's dates are one second ahead; a far date comes from this stand-in service.
		beforeAll(async () => {
			server = await startRawServer((_req, res) => {
				res.writeHead(503, {
					'retry-after': new Date(Date.now() + 2 * 3600_000).toUTCString(),
					'content-type': 'application/json',
				});
				res.end('{"error":{"code":"unavailable","message":"Down for maintenance"}}');
			});
		});
		afterAll(() => server.stop());

		it('is not waited for, and not anticipated', async () => {
			const result = await run(getTicket(), server.baseUrl);
			expect(server.received).toHaveLength(1);
			expect(result.error?.message).toMatch(
				/^The service had an error \(HTTP 503\) and asked to wait (7199|7200) s$/,
			);
			expect(result.error?.description).toContain('The service said: "Down for maintenance"');
		});
	});
});
