import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, useSandbox } from '../../../harness';
import { startSandbox } from '../../../../sandbox';
import { byId, runNode } from '../../supportTicketNode';

// Successes without the `{data}` envelope (docs/api.md#answers): every output item still has an object.
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

describe('a success without the data envelope', () => {
	it('Get gives the resource as the service sent it', async () => {
		sandbox.setResponseShape({ single: 'bare' });
		const items = await outputOf({ resource: 'ticket', operation: 'get', ticketId: byId('tkt_3') });
		expect(items.map((item) => item.json)).toEqual([sandbox.store.getTicket('tkt_3')]);
	});
});

describe('has_more given as text', () => {
	it('"true" goes on to the next page: Return All brings every ticket', async () => {
		const many = await startSandbox({ seed: 150 });
		try {
			many.setResponseShape({ hasMoreAsText: true });
			const run = await runNode(
				{ resource: 'ticket', operation: 'getAll', returnAll: true },
				credentialsFor(many),
			);
			expect(run.error).toBeUndefined();
			expect(run.output('Node')).toHaveLength(150);
			expect(many.log.map((entry) => entry.status)).toEqual([200, 200]);
		} finally {
			await many.stop();
		}
	});
});
