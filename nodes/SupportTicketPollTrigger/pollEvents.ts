import type { QueryInput } from '../shared/signing/serializeQuery';

export type PollEvent = 'newTicket' | 'updatedTicket' | 'newCustomer' | 'updatedCustomer';

/** How each event is read from the service: which list, newest first, keyed by which timestamp. */
export interface PollSource {
	path: string;
	/** Sent on every page (the cursor is bound to it). */
	qs: QueryInput;
	timestampField: 'created_at' | 'updated_at';
	/** Names the records in messages. */
	noun: string;
}

export function pollSource(event: PollEvent, filters: { status?: string; priority?: string }): PollSource {
	switch (event) {
		case 'newTicket':
			// The default order is created_at descending (spec 4.1): no sort parameters needed.
			return { path: '/tickets', qs: { ...filters }, timestampField: 'created_at', noun: 'ticket' };
		case 'updatedTicket':
			return {
				path: '/tickets',
				qs: { ...filters, sort_by: 'updated_at', sort: 'desc' },
				timestampField: 'updated_at',
				noun: 'ticket',
			};
		// Updated Customer scans the whole list (no order needed); created_at only for a manual run's newest.
		case 'newCustomer':
		case 'updatedCustomer':
			return { path: '/customers', qs: {}, timestampField: 'created_at', noun: 'customer' };
	}
}
