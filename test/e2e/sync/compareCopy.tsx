import {
	type Customer,
	formatTimestamp,
	type Sandbox,
	type Ticket,
	type TimestampFormat,
} from '../../../sandbox';
import type { CopyStore, Row } from './syncTables';

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

/** Text as the examples store it (docs/keep-a-copy-in-sync.md): NUL and unpaired surrogates, which PostgreSQL cannot hold, become U+FFFD. */
export function storedText<T>(value: T): T | string {
	return typeof value === 'string'
		? value.replace(
				/\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
				'\uFFFD',
			)
		: value;
}

/** A timestamp as the copy keeps it: the service's value, as text. */
const stamp = (iso: string, format: TimestampFormat): string =>
	String(formatTimestamp(iso, format));

function ticketFields(ticket: Ticket, format: TimestampFormat): Row {
	return {
		ticket_id: ticket.id,
		subject: storedText(ticket.subject),
		description: storedText(ticket.description),
		status: ticket.status,
		priority: ticket.priority,
		customer_id: ticket.customer.id,
		created_at: stamp(ticket.created_at, format),
		updated_at: stamp(ticket.updated_at, format),
	};
}

function customerFields(customer: Customer, format: TimestampFormat): Row {
	// A customer without a name has null in the service and must have null (not '') in the copy.
	return {
		customer_id: customer.id,
		email: customer.email,
		name: storedText(customer.name),
		created_at: stamp(customer.created_at, format),
		updated_at: stamp(customer.updated_at, format),
	};
}

/** The newest updated_at the examples can read in `format` (Unix seconds drop the milliseconds), as ISO: what the reconcile saves as its watermark. */
export function watermarkOf(iso: string, format: TimestampFormat): string {
	const ms = Date.parse(iso);
	return new Date(format === 'epoch-seconds' ? Math.floor(ms / 1000) * 1000 : ms).toISOString();
}

/** Text no PostgreSQL text or json value can hold as it is: a NUL and an unpaired surrogate. */
export const HOSTILE_TEXT = 'NUL \u0000 here, a lone surrogate \uD800 there';

/** Puts HOSTILE_TEXT into ticket subjects and descriptions and a customer's name (validated writes: events and webhooks as for any change). */
export function putHostileText(
	sandbox: Sandbox,
	ticketIndexes: number[],
	customerIndex: number,
): string {
	const tickets = sandbox.store.listTickets();
	const customer = sandbox.store.listCustomers()[customerIndex];
	const ids = ticketIndexes.map((i) => tickets[i].id);
	for (const id of ids)
		sandbox.store.updateTicket(id, {
			subject: `Subject: ${HOSTILE_TEXT}`,
			description: `Description: ${HOSTILE_TEXT}`,
		});
	sandbox.store.updateCustomer(customer.id, { name: `Name: ${HOSTILE_TEXT}` });
	return `NUL and a lone surrogate in tickets ${ids.join(', ')} and customer ${customer.id}`;
}

/** `expected`: the rows the copy must hold, every column (ticketFields, customerFields). */
function compare(expected: Row[], copy: Row[], key: string): CopyDifference {
	const columns = Object.keys(expected[0] ?? {});
	const difference: CopyDifference = {
		compared: expected.length,
		missing: [],
		extra: [],
		stale: [],
	};
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

export function compareTickets(service: Ticket[], copy: Row[], format: TimestampFormat) {
	const tickets = service.map((t) => ticketFields(t, format));
	return compare(tickets, copy, 'ticket_id');
}

export function isEqual(difference: CopyDifference): boolean {
	return difference.missing.length + difference.extra.length + difference.stale.length === 0;
}

export interface CopyDifferences {
	tickets: CopyDifference;
	customers: CopyDifference;
}

export const copyEqual = (d: CopyDifferences): boolean =>
	isEqual(d.tickets) && isEqual(d.customers);

/** Both tables' differences, on one line. */
export const describeCopy = (d: CopyDifferences): string =>
	`${describeDifference('tickets', d.tickets)}; ${describeDifference('customers', d.customers)}`;

/** Throws `what: <both differences>` unless the copy equals the service. */
export function mustEqual(what: string, d: CopyDifferences): void {
	if (!copyEqual(d)) throw new Error(`${what}: ${describeCopy(d)}`);
}

export function describeDifference(what: string, difference: CopyDifference): string {
	const sample = <T,>(list: T[]) => JSON.stringify(list.slice(0, 5));
	return `${what}: ${difference.compared} compared, ${difference.missing.length} missing ${sample(difference.missing)}, ${difference.extra.length} extra ${sample(difference.extra)}, ${difference.stale.length} stale ${sample(difference.stale)}`;
}

/** The copy, read from where it is kept, against the service as it is now. */
export async function compareWithService(
	copy: CopyStore,
	sandbox: Sandbox,
): Promise<CopyDifferences> {
	const format = sandbox.timestampFormat;
	const customers = sandbox.store.listCustomers().map((c) => customerFields(c, format));
	return {
		tickets: compareTickets(sandbox.store.listTickets(), await copy.rows('tickets'), format),
		customers: compare(customers, await copy.rows('customers'), 'customer_id'),
	};
}
