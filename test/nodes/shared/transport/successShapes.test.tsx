import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../../../harness';
import { byId, runNode } from '../../supportTicketNode';

// Successes without the `{data}` envelope (docs/api.md#answers): every output item still has an object. has_more as
// text: paginate.moreWithoutCursor.test.tsx.
const { sandbox, credentials } = useSandbox({ seed: 5 });

async function outputOf(parameters: IDataObject) {
	sandbox.clearLog();
	const run = await runNode(parameters, credentials);
	expect(run.error).toBeUndefined();
	return run.output('Node');
}

describe('204 No Content', () => {
	it('Update gives an item with the id that was updated, and the change is made once', async () => {
		sandbox.setResponseShape({ single: 'noContent' });
		const items = await outputOf({
			resource: 'ticket',
			operation: 'update',
			ticketId: byId('tkt_2'),
			updateFields: { status: 'solved' },
		});
		expect(items.map((item) => item.json)).toEqual([{ id: 'tkt_2' }]);
		expect(sandbox.log.map((entry) => [entry.method, entry.status])).toEqual([['PATCH', 204]]);
		expect(sandbox.store.getTicket('tkt_2')?.status).toBe('solved');
	});

	it('Create gives an empty object (the service named no id), sent once', async () => {
		sandbox.setResponseShape({ single: 'noContent' });
		const before = sandbox.store.customerCount;
		const items = await outputOf({
			resource: 'customer',
			operation: 'create',
			email: 'nocontent@example.com',
		});
		expect(items.map((item) => item.json)).toEqual([{}]);
		expect(sandbox.store.customerCount).toBe(before + 1);
	});

	it('Reply Create gives no item claiming the ticket id as the reply id (a workflow writing replies by id would overwrite them)', async () => {
		sandbox.setResponseShape({ single: 'noContent' });
		const [item] = await outputOf({
			resource: 'reply',
			operation: 'create',
			ticketId: byId('tkt_2'),
			body: 'Hi',
		});
		expect(item.json.id).not.toBe('tkt_2');
	});
});

it('a success without the data envelope: Get gives the resource as the service sent it', async () => {
	sandbox.setResponseShape({ single: 'bare' });
	const items = await outputOf({ resource: 'ticket', operation: 'get', ticketId: byId('tkt_3') });
	expect(items.map((item) => item.json)).toEqual([sandbox.store.getTicket('tkt_3')]);
});
