import type { INodeProperties } from 'n8n-workflow';

import * as customer from '../../../../nodes/SupportTicket/actions/customer/Customer.resource';
import * as reply from '../../../../nodes/SupportTicket/actions/reply/Reply.resource';
import * as ticket from '../../../../nodes/SupportTicket/actions/ticket/Ticket.resource';

/**
 * Each operation declares whether the router runs its items concurrently; the user sees the same
 * fact as Options → Concurrent Requests. The two must agree, or the option does nothing (or
 * items run concurrently without it).
 */
const operations = {
	ticket: { create: ticket.create, get: ticket.get, getAll: ticket.getAll, update: ticket.update },
	reply: { create: reply.create, getAll: reply.getAll },
	customer: { create: customer.create, get: customer.get, getAll: customer.getAll, update: customer.update },
};

const offersConcurrentRequests = (description: INodeProperties[]) =>
	description.some((property) => property.name === 'options' && (property.options ?? []).some((option) => 'name' in option && option.name === 'concurrentRequests'));

describe('which operations run items concurrently', () => {
	const rows = Object.entries(operations).flatMap(([resource, ops]) => Object.entries(ops).map(([operation, module]) => ({ resource, operation, module })));

	it.each(rows)('$resource → $operation: the concurrent flag matches Options → Concurrent Requests', ({ module }) => {
		expect(module.concurrent).toBe(offersConcurrentRequests(module.description));
	});

	it('Get Many of tickets and customers read page after page; every other operation runs concurrently', () => {
		const concurrent = rows.filter(({ module }) => module.concurrent).map(({ resource, operation }) => `${resource}.${operation}`);
		expect(concurrent).toEqual(['ticket.create', 'ticket.get', 'ticket.update', 'reply.create', 'reply.getAll', 'customer.create', 'customer.get', 'customer.update']);
	});
});
