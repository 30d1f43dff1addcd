import { runWorkflow, singleNodeWorkflow, useSandbox } from '../../../harness';

/**
 * A reply created with a 204 (no body): the only id known is the ticket's. The item must not
 * present the ticket's id as the reply's `id` (a workflow writing replies by id would overwrite
 * one reply with the next, or mistake the ticket for a reply).
 */
const NODE = 'n8n-nodes-support-ticket.supportTicket';
const { sandbox, credentials } = useSandbox({ seed: 5 });

it('Reply Create answered 204 gives no item claiming the ticket id as the reply id', async () => {
	sandbox.setResponseShape({ single: 'noContent' });
	const run = await runWorkflow(
		singleNodeWorkflow(NODE, { resource: 'reply', operation: 'create', ticketId: { __rl: true, mode: 'id', value: 'tkt_2' }, body: 'Hi' }),
		{ supportTicketApi: credentials },
	);
	expect(run.error).toBeUndefined();
	const [item] = run.output('Node');
	expect(item.json.id).not.toBe('tkt_2');
});
