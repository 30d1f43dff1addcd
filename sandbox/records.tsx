/**
 * Internal records and their API representation.
 *
 * Records hold timestamps as epoch milliseconds (the keyset sort keys) and derive ids from
 * their sequence number, which keeps a million seeded tickets small in memory. Rendering
 * turns them into the JSON objects the API returns.
 *
 * Ids are `tkt_<n>`, `rep_<n>`, `cus_<n>` with n not zero-padded, so ids do not sort in
 * creation order as strings (tkt_10 < tkt_9): clients must treat them as opaque.
 */
import type { JsonObject } from './validation';

export interface CustomerRecord {
	readonly seq: number;
	email: string;
	name: string | null;
	readonly createdAt: number;
	updatedAt: number;
	custom?: JsonObject;
}

export interface TicketRecord {
	readonly seq: number;
	subject: string;
	description: string;
	priority: string;
	status: string;
	customer: CustomerRecord;
	readonly createdAt: number;
	updatedAt: number;
	custom?: JsonObject;
}

export interface ReplyRecord {
	readonly seq: number;
	readonly ticket: TicketRecord;
	body: string;
	readonly createdAt: number;
	custom?: JsonObject;
}

export interface CustomerSummary {
	id: string;
	email: string;
	name: string | null;
}

/** A ticket as the API returns it; custom fields appear after the known ones. */
export interface Ticket {
	id: string;
	subject: string;
	description: string;
	priority: string;
	status: string;
	customer: CustomerSummary;
	created_at: string;
	updated_at: string;
	[customField: string]: unknown;
}

export interface Reply {
	id: string;
	ticket_id: string;
	body: string;
	created_at: string;
	[customField: string]: unknown;
}

export interface Customer {
	id: string;
	email: string;
	name: string | null;
	created_at: string;
	updated_at: string;
	[customField: string]: unknown;
}

export const ID_PREFIX = { ticket: 'tkt_', reply: 'rep_', customer: 'cus_' } as const;

export function formatId(prefix: string, seq: number): string {
	return `${prefix}${seq}`;
}

/** Sequence number of a well-formed id with this prefix, else undefined (a 404, never an alias). */
export function parseId(prefix: string, id: string): number | undefined {
	if (!id.startsWith(prefix)) return undefined;
	const digits = id.slice(prefix.length);
	return /^[1-9][0-9]{0,14}$/.test(digits) ? Number(digits) : undefined;
}

export function isoTimestamp(ms: number): string {
	return new Date(ms).toISOString();
}

export function renderCustomer(record: CustomerRecord): Customer {
	return {
		id: formatId(ID_PREFIX.customer, record.seq),
		email: record.email,
		name: record.name,
		created_at: isoTimestamp(record.createdAt),
		updated_at: isoTimestamp(record.updatedAt),
		...record.custom,
	};
}

export function renderTicket(record: TicketRecord): Ticket {
	const customer = record.customer;
	return {
		id: formatId(ID_PREFIX.ticket, record.seq),
		subject: record.subject,
		description: record.description,
		priority: record.priority,
		status: record.status,
		customer: {
			id: formatId(ID_PREFIX.customer, customer.seq),
			email: customer.email,
			name: customer.name,
		},
		created_at: isoTimestamp(record.createdAt),
		updated_at: isoTimestamp(record.updatedAt),
		...record.custom,
	};
}

export function renderReply(record: ReplyRecord): Reply {
	return {
		id: formatId(ID_PREFIX.reply, record.seq),
		ticket_id: formatId(ID_PREFIX.ticket, record.ticket.seq),
		body: record.body,
		created_at: isoTimestamp(record.createdAt),
		...record.custom,
	};
}
