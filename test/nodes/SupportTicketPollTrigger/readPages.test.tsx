import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { stamp } from '../../../nodes/SupportTicketPollTrigger/readPages';
import { pollSource } from '../../../nodes/SupportTicketPollTrigger/pollProperties';

const ctx = {
	getNode: () => ({
		name: 'On Change',
		type: 'n8n-nodes-support-ticket.supportTicketPollTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	}),
} as unknown as IPollFunctions;
const newTicket = pollSource('newTicket', {});

describe('stamp: what the feed needs of each record', () => {
	it('reads a numeric created_at (Unix seconds) as the same instant as its ISO form', () => {
		expect(stamp(ctx, { id: 'tkt_1', created_at: 1748779200 }, newTicket).atMs).toBe(
			Date.parse('2025-06-01T12:00:00Z'),
		);
		expect(stamp(ctx, { id: 7, created_at: '2025-06-01T14:00:00+02:00' }, newTicket)).toMatchObject(
			{ id: '7', atMs: Date.parse('2025-06-01T12:00:00Z') },
		);
	});

	it.each<[IDataObject, string]>([
		[{ id: 'tkt_1' }, 'without created_at'],
		[{ id: 'tkt_1', created_at: '' }, 'without created_at'],
		[{ id: 'tkt_1', created_at: null }, 'without created_at'],
		[{ created_at: '2025-06-01T12:00:00Z' }, 'without id'],
		[
			{ id: 'tkt_1', created_at: 'yesterday' },
			'whose created_at "yesterday" is not a date and time',
		],
		[{ id: 'tkt_1', created_at: { at: 1 } }, 'whose created_at {"at":1} is not a date and time'],
	])('names what is wrong with %j', (record, problem) => {
		expect(() => stamp(ctx, record, newTicket)).toThrow(`The service listed a ticket ${problem}`);
	});
});
