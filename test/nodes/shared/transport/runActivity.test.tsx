import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, itemsWorkflow, runWorkflow, useSandbox } from '../../../harness';
import { NODE, runNode } from '../../supportTicketNode';
import { useWarningsWithoutWaits } from '../../SupportTicket/warningsWithoutWaits';
import { lossyGateway } from '../../SupportTicket/lossyGateway';

// What the node did on the user's behalf, under its output in the editor (n8n's execution hints): only when it happened.

useWarningsWithoutWaits();

const hintsOf = (run: Awaited<ReturnType<typeof runWorkflow>>): string[] =>
	(run.run?.data.resultData.runData.Node?.[0]?.hints ?? []).map((hint) => hint.message);

const ticket = (subject: string): IDataObject => ({
	resource: 'ticket',
	operation: 'create',
	subject: `={{ "${subject} " + $json.n }}`,
	description: 'Printer on fire',
	customerEmail: 'hints@example.com',
});

describe('execution hints', () => {
	const { sandbox } = useSandbox({ seed: 21 });

	it('a plain run shows none', async () => {
		const result = await runNode(
			{ resource: 'ticket', operation: 'getAll', returnAll: true },
			credentialsFor(sandbox),
		);
		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toEqual([]);
	});

	it('waits for the rate limit and retries after a lost connection are told once each, summed', async () => {
		sandbox.setFaults({ next: [429, 429, '503-bare'] });
		const result = await runNode(
			{ resource: 'ticket', operation: 'getAll', returnAll: true },
			credentialsFor(sandbox),
		);
		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toEqual([
			expect.stringMatching(/^Waited \d+(\.\d)? s in all for the service's rate limit/),
			'1 request was sent again after a server error or a lost connection',
		]);
	});

	it('a create found after its answer was lost', async () => {
		const gateway = await lossyGateway(sandbox.baseUrl, ({ method }) =>
			method === 'POST' ? 'lost' : 'pass',
		);
		try {
			const result = await runWorkflow(itemsWorkflow([{ n: 1 }], NODE, ticket('found')), {
				supportTicketApi: credentialsFor(sandbox, gateway.baseUrl),
			});
			expect(result.error).toBeUndefined();
			expect(hintsOf(result)).toEqual([
				'1 create lost its answer but had been processed: the record was found, not sent again',
			]);
		} finally {
			await gateway.stop();
		}
	});

	it('Retry On Fail: the try that succeeded says what it returned and what it sent again', async () => {
		const gateway = await lossyGateway(sandbox.baseUrl, ({ method, posts }) =>
			method === 'POST' && posts === 1
				? 'lost'
				: method === 'POST' && posts === 2
					? 'failed'
					: 'pass',
		);
		try {
			const workflow = itemsWorkflow(
				[{ n: 1 }, { n: 2 }],
				NODE,
				{ ...ticket('hinted'), options: { concurrentRequests: 1 } },
				{
					retryOnFail: true,
					maxTries: 2,
					waitBetweenTries: 1,
				},
			);
			const result = await runWorkflow(workflow, {
				supportTicketApi: credentialsFor(sandbox, gateway.baseUrl),
			});
			expect(result.error).toBeUndefined();
			// The first try's hints go with its failure; the second returned item 1's ticket and sent item 2's again.
			expect(hintsOf(result)).toEqual([
				'1 create was sent again: the answer was lost and the record not found',
				'1 record made in an earlier try (Retry On Fail) returned, not sent again',
			]);
		} finally {
			await gateway.stop();
		}
	});
});
