import {
	isSelectedEvent,
	parseEventList,
	readEventName,
} from '../../../nodes/SupportTicketTrigger/selectEvent';

describe('event selection', () => {
	it('reads the event name from a top-level or nested field, only when it is a string', () => {
		expect(readEventName({ event: 'ticket.created' }, 'event')).toBe('ticket.created');
		expect(readEventName({ meta: { type: 'reply.created' } }, 'meta.type')).toBe('reply.created');
		expect(readEventName({ event: 42 }, 'event')).toBeUndefined();
		expect(readEventName({ meta: null }, 'meta.type')).toBeUndefined();
		expect(readEventName('text', 'event')).toBeUndefined();
	});

	it('parses additional names separated by commas or lines', () => {
		expect(parseEventList(' ticket.merged, ,sla.breached\ncustomer.* ')).toEqual([
			'ticket.merged',
			'sla.breached',
			'customer.*',
		]);
		expect(parseEventList(undefined)).toEqual([]);
	});

	it.each([
		[['*'], undefined, true],
		[['*'], 'anything.else', true],
		[['ticket.created'], 'ticket.created', true],
		[['ticket.created'], 'ticket.updated', false],
		[['ticket.created'], 'Ticket.Created', false],
		[['ticket.*'], 'ticket.merged', true],
		[['ticket.*'], 'tickets.merged', false],
		[['ticket.created'], undefined, false],
		[[], 'ticket.created', false],
	])('selected %j, event %s → %s', (selected, event, expected) => {
		expect(isSelectedEvent(event, selected)).toBe(expected);
	});
});
