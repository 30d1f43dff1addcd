import type { Customer, Sandbox, Ticket } from '../../../sandbox';
import { type CopyStore, CUSTOMER_COLUMNS, type Row, TICKET_COLUMNS } from './syncTables';

/** How a copy differs from the service: the proof wants every count at 0. */
export interface CopyDifference {
	compared: number;
	/** In the service, not in the copy. */
	missing: string[];
	/** In the copy, not in the service, or a second row for one id. */
	extra: string[];
	/** In both, but a kept field (or updated_at) differs. */
	stale: Array<{ id: string; field: string; service: unknown; copy: unknown }>;
}

function ticketFields(ticket: Ticket): Row {
	return {
		ticket_id: ticket.id,
		subject: ticket.subject,
		description: ticket.description,
		status: ticket.status,
		priority: ticket.priority,
		customer_id: ticket.customer.id,
		created_at: ticket.created_at,
		updated_at: ticket.updated_at,
	};
}

function customerFields(customer: Customer): Row {
	// A customer without a name has null in the service and must have null (not '') in the copy.
	return { customer_id: customer.id, email: customer.email, name: customer.name, created_at: customer.created_at, updated_at: customer.updated_at };
}

function compare(expected: Row[], copy: Row[], key: string, columns: readonly string[]): CopyDifference {
	const difference: CopyDifference = { compared: expected.length, missing: [], extra: [], stale: [] };
	const copyById = new Map<string, Row>();
	for (const row of copy) {
		const id = String(row[key]);
		if (copyById.has(id)) difference.extra.push(`${id} (second row)`);
		else copyById.set(id, row);
	}
	const expectedIds = new Set<string>();
	for (const record of expected) {
		const id = String(record[key]);
		expectedIds.add(id);
		const row = copyById.get(id);
		if (!row) {
			difference.missing.push(id);
			continue;
		}
		const field = columns.find((column) => kept(row[column]) !== kept(record[column]));
		if (field) difference.stale.push({ id, field, service: record[field], copy: row[field] });
	}
	for (const id of copyById.keys()) if (!expectedIds.has(id)) difference.extra.push(id);
	return difference;
}

/** A column's value as the comparison sees it: null stays null (it is not ''), the rest as text. */
function kept(value: unknown): string | null {
	return value === undefined || value === null ? null : String(value);
}

export function compareTickets(service: Ticket[], copy: Row[]): CopyDifference {
	return compare(service.map(ticketFields), copy, 'ticket_id', TICKET_COLUMNS);
}

export function compareCustomers(service: Customer[], copy: Row[]): CopyDifference {
	return compare(service.map(customerFields), copy, 'customer_id', CUSTOMER_COLUMNS);
}

export function describeDifference(what: string, difference: CopyDifference): string {
	const sample = <T,>(list: T[]) => JSON.stringify(list.slice(0, 5));
	return `${what}: ${difference.compared} compared, ${difference.missing.length} missing ${sample(difference.missing)}, ${difference.extra.length} extra ${sample(difference.extra)}, ${difference.stale.length} stale ${sample(difference.stale)}`;
}

/** The copy, read from where it is kept, against the service as it is now. */
export async function compareWithService(copy: CopyStore, sandbox: Sandbox): Promise<{ tickets: CopyDifference; customers: CopyDifference }> {
	return {
		tickets: compareTickets(sandbox.store.listTickets(), await copy.rows('tickets')),
		customers: compareCustomers(sandbox.store.listCustomers(), await copy.rows('customers')),
	};
}
