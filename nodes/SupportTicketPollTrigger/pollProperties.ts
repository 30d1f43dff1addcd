import type { INodeProperties } from 'n8n-workflow';

import { moreInfo } from '../shared/descriptions/moreInfo';
import { optionsCollection } from '../shared/descriptions/optionsCollection';
import { ticketFilters } from '../shared/descriptions/ticketFields';
import type { QueryInput } from '../shared/signing/serializeQuery';

export const DEFAULT_MAX_PAGES_PER_POLL = 10;
export const DEFAULT_OVERLAP_MINUTES = 5;

export type PollEvent = 'newTicket' | 'updatedTicket' | 'newCustomer' | 'updatedCustomer';

/**
 * How an event is read: which list, newest first by which
 * timestamp, and what its records are called.
 */
export interface PollSource {
	path: string;
	/** Sent on every page (the cursor is bound to it). */
	qs: QueryInput;
	timestampField: 'created_at' | 'updated_at';
	noun: 'ticket' | 'customer';
}

export function pollSource(
	event: PollEvent,
	filters: { status?: string; priority?: string },
): PollSource {
	switch (event) {
		case 'newTicket':
			// The default order is created_at, newest first: no sort parameters needed.
			return { path: '/tickets', qs: { ...filters }, timestampField: 'created_at', noun: 'ticket' };
		case 'updatedTicket':
			return {
				path: '/tickets',
				qs: { ...filters, sort_by: 'updated_at', sort: 'desc' },
				timestampField: 'updated_at',
				noun: 'ticket',
			};
		case 'newCustomer':
			return { path: '/customers', qs: {}, timestampField: 'created_at', noun: 'customer' };
		case 'updatedCustomer':
			// Customers have no order by updated_at: every poll scans the whole list.
			return { path: '/customers', qs: {}, timestampField: 'updated_at', noun: 'customer' };
	}
}

export const pollProperties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		options: [
			{ name: 'New Ticket', value: 'newTicket', description: 'A ticket was created' },
			{
				name: 'Updated Ticket',
				value: 'updatedTicket',
				description: 'A ticket was created or changed (needs the service to sort by updated_at)',
			},
			{ name: 'New Customer', value: 'newCustomer', description: 'A customer was created' },
			{
				name: 'Updated Customer',
				value: 'updatedCustomer',
				description: 'A customer was created or changed (reads every customer on each poll)',
			},
		],
		default: 'newTicket',
	},
	{
		displayName:
			'Updated Ticket needs the service to sort tickets by updated_at. If it does not, ' +
			'the poll fails saying so: use the Support Ticket Trigger (webhooks) instead.',
		name: 'updatedNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { event: ['updatedTicket'] } },
	},
	{
		displayName:
			'Updated Customer reads every customer on each poll (one ' +
			'call per 100 customers) and emits the new and changed ones.',
		name: 'updatedCustomerNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { event: ['updatedCustomer'] } },
	},
	ticketFilters({ show: { event: ['newTicket', 'updatedTicket'] } }),
	optionsCollection([
		{
			displayName: 'Emit Existing Items on First Poll',
			name: 'emitExisting',
			type: 'boolean',
			default: false,
			description:
				'Whether the first poll after activation emits every ' +
				'existing item. Off: it only notes where to start.',
		},
		{
			displayName: 'Max Pages per Poll',
			name: 'maxPagesPerPoll',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_MAX_PAGES_PER_POLL,
			description:
				'Pages of 100 read at most in one poll. When more is new, ' +
				'the next polls read the rest first, so nothing is skipped.',
		},
		{
			displayName: 'Overlap Window (Minutes)',
			name: 'overlapMinutes',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_OVERLAP_MINUTES,
			description:
				'How far below the newest timestamp seen each poll reads again, to catch records ' +
				`that appear late; none is emitted twice. ${moreInfo('poll-trigger.md')}.`,
			displayOptions: { show: { '/event': ['newTicket', 'updatedTicket', 'newCustomer'] } },
		},
	]),
];
