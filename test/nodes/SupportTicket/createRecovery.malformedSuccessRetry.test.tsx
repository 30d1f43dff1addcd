import { itemsWorkflow, runWorkflow, useSandbox } from '../../harness';
import { NODE } from '../supportTicketNode';
import { useWarningsWithoutWaits } from './warningsWithoutWaits';
import { type GatewayAnswer, useGateway } from './lossyGateway';

// Review: a create answered 2xx with a body that is not the API's JSON was processed (the node says so: "The create was
// not repeated, as the service answered success"). createOnce's keepWhatLaterTriesNeed treats every error without `mayExist` as
// "refused outright: nothing exists under this key" and forgets the key, so Retry On Fail sends the create again.

useWarningsWithoutWaits();

// A proxy in front of the service passes the status on and puts its own page in the body.
const processedAnsweredWithAPage: GatewayAnswer = (answer) => ({
	...answer,
	headers: { 'content-type': 'text/html' },
	body: '<html><body>Request accepted</body></html>',
});

describe.each([
	['honours Idempotency-Key', true],
	['ignores Idempotency-Key', false],
])(
	'Retry On Fail, a create answered 201 with a page that is not JSON, against a service that %s',
	(_, idempotencyKeys) => {
		const { sandbox } = useSandbox({ seed: 35, idempotencyKeys });
		const gateway = useGateway(sandbox);

		it('the ticket the first try made is not made again', async () => {
			const subject = `malformed success ${String(idempotencyKeys)}`;
			const credentials = await gateway(({ method, posts }) =>
				method === 'POST' && posts === 1 ? processedAnsweredWithAPage : 'pass',
			);
			const workflow = itemsWorkflow(
				[{ n: 1 }],
				NODE,
				{
					resource: 'ticket',
					operation: 'create',
					subject,
					description: 'Printer on fire',
					customerEmail: 'page@example.com',
				},
				{ retryOnFail: true, maxTries: 2, waitBetweenTries: 1 },
			);
			await runWorkflow(workflow, { supportTicketApi: credentials });
			expect(sandbox.store.listTickets().filter((t) => t.subject === subject)).toHaveLength(1);
		});
	},
);
