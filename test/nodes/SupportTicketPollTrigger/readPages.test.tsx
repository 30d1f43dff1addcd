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

// How created_at is read: serviceTimestamp.test.tsx, and per format through the trigger: changeFeed.test.tsx.
describe('stamp: what the feed needs of each record', () => {
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
