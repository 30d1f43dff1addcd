/**
 * In-memory tickets, customers and replies, with keyset indexes for every list order.
 *
 * The HTTP layer and tests use the same methods: `createTicket(body)` etc. validate exactly
 * like the API and emit the same webhook events, so a test can set up data without HTTP.
 * All returned objects are fresh API representations; mutating them changes nothing.
 */
import { ApiError, notFound, validationFailed } from './errors';
import { KeysetIndex, type KeysetPosition, type SortOrder } from './keysetIndex';
import type { ListQuirks } from './listQuirks';
import {
	type Customer,
	type CustomerRecord,
	ID_PREFIX,
	parseId,
	type Reply,
	type ReplyRecord,
	renderCustomer,
	renderReply,
	renderTicket,
	type Ticket,
	type TicketRecord,
} from './records';
import {
	type CustomerReference,
	isJsonObject,
	type JsonObject,
	validateCustomerCreate,
	validateCustomerUpdate,
	validateReplyCreate,
	validateTicketCreate,
	validateTicketUpdate,
} from './validation';

export const STORE_EVENTS = [
	'ticket.created',
	'ticket.updated',
	'reply.created',
	'customer.created',
	'customer.updated',
] as const;
export type StoreEventName = (typeof STORE_EVENTS)[number];
export type StoreListener = (event: StoreEventName, data: Ticket | Reply | Customer) => void;

export type TicketSortKey = 'created_at' | 'updated_at';

export interface TicketListOptions {
	status?: string;
	priority?: string;
	sortBy?: TicketSortKey;
	sort?: SortOrder;
}

export interface Page<T> {
	items: T[];
	hasMore: boolean;
	/** Keyset position of the last item, for the next cursor (absent on an empty page). */
	last?: KeysetPosition;
}

/** Raw record data for seeding (no validation, no events). */
export interface SeedCustomer {
	email: string;
	name: string | null;
	createdAt: number;
	updatedAt: number;
	custom?: JsonObject;
}

export interface SeedTicket {
	subject: string;
	description: string;
	priority: string;
	status: string;
	customer: CustomerRecord;
	createdAt: number;
	updatedAt: number;
	custom?: JsonObject;
}

export interface SeedReply {
	body: string;
	createdAt: number;
	custom?: JsonObject;
}

export class SandboxStore {
	/** Records by sequence number - 1 (sequence numbers are dense and start at 1). */
	private readonly tickets: TicketRecord[] = [];
	private readonly customers: CustomerRecord[] = [];
	private replies = 0;
	private readonly ticketsByCreatedAt = new KeysetIndex<TicketRecord>((t) => t.createdAt);
	private readonly ticketsByUpdatedAt = new KeysetIndex<TicketRecord>((t) => t.updatedAt);
	private readonly customersByCreatedAt = new KeysetIndex<CustomerRecord>((c) => c.createdAt);
	private readonly repliesByTicket = new Map<TicketRecord, KeysetIndex<ReplyRecord>>();
	/** Lower-cased e-mail -> customer: e-mail addresses are unique, case-insensitively. */
	private readonly customersByEmail = new Map<string, CustomerRecord>();
	private readonly listeners: StoreListener[] = [];
	private bulkLoading = false;
	/** See listQuirks.tsx; tests set it directly (off by default). */
	listQuirks: ListQuirks = {};

	/**
	 * Whether a new reply moves its ticket's updated_at (default true). The spec does not say (docs/api.md#fields); a
	 * service where replies leave the ticket alone is as valid, and the sync proof runs under both.
	 * Switched at run time: `store.replyMovesTicket = false` or POST /__sandbox/behaviour.
	 */
	replyMovesTicket = true;

	/** A helpdesk rule: a patch applied to every new ticket at once, e.g. `{ priority: 'urgent' }` (the answer shows it). */
	ticketCreatedRule: Record<string, unknown> | undefined;

	constructor(private readonly now: () => number = Date.now) {}

	get ticketCount(): number {
		return this.tickets.length;
	}

	get customerCount(): number {
		return this.customers.length;
	}

	get replyCount(): number {
		return this.replies;
	}

	/** Subscribes to change events (the webhook dispatcher does). */
	onEvent(listener: StoreListener): void {
		this.listeners.push(listener);
	}

	// ---- reads -------------------------------------------------------------------------------

	getTicket(id: string): Ticket | undefined {
		const record = this.findTicket(id);
		return record && renderTicket(record);
	}

	getCustomer(id: string): Customer | undefined {
		const record = this.findCustomer(id);
		return record && renderCustomer(record);
	}

	findCustomerByEmail(email: string): Customer | undefined {
		const record = this.customersByEmail.get(email.toLowerCase());
		return record && renderCustomer(record);
	}

	/** Every matching ticket in list order (default created_at desc, like the API). */
	listTickets(options: TicketListOptions = {}): Ticket[] {
		const matches = ticketFilter(options);
		return this.ticketIndex(options.sortBy ?? 'created_at')
			.all(options.sort ?? 'desc')
			.filter((t) => matches === undefined || matches(t))
			.map(renderTicket);
	}

	/** Every customer, created_at desc. */
	listCustomers(): Customer[] {
		return this.customersByCreatedAt.all('desc').map(renderCustomer);
	}

	/** Every reply of a ticket, created_at desc; throws a 404 ApiError for an unknown ticket. */
	listReplies(ticketId: string): Reply[] {
		const ticket = this.requireTicket(ticketId);
		return (this.repliesByTicket.get(ticket)?.all('desc') ?? []).map(renderReply);
	}

	pageTickets(requested: TicketListOptions, limit: number, after?: KeysetPosition): Page<Ticket> {
		const options = this.listQuirks.ignoreSortBy
			? { ...requested, sortBy: undefined, sort: undefined }
			: requested;
		const index = this.ticketIndex(options.sortBy ?? 'created_at');
		const page = index.page({
			order: options.sort ?? 'desc',
			limit,
			after,
			matches: ticketFilter(options),
		});
		return toPage(page.items, page.hasMore, index, renderTicket);
	}

	pageCustomers(limit: number, after?: KeysetPosition, order: SortOrder = 'desc'): Page<Customer> {
		const page = this.customersByCreatedAt.page({ order, limit, after });
		return toPage(page.items, page.hasMore, this.customersByCreatedAt, renderCustomer);
	}

	/** Throws a 404 ApiError for an unknown ticket. */
	pageReplies(
		ticketId: string,
		limit: number,
		after?: KeysetPosition,
		order: SortOrder = this.listQuirks.repliesOldestFirst ? 'asc' : 'desc',
	): Page<Reply> {
		const ticket = this.requireTicket(ticketId);
		const index = this.repliesByTicket.get(ticket);
		if (index === undefined) return { items: [], hasMore: false };
		const page = index.page({ order, limit, after });
		return toPage(page.items, page.hasMore, index, renderReply);
	}

	/** Throws a 404 ApiError for an unknown ticket (used before validating a request body). */
	assertTicketExists(id: string): void {
		this.requireTicket(id);
	}

	// ---- writes (validated like the API; throw ApiError 400/404/422) ---------------------------

	createTicket(body: unknown): Ticket {
		const input = validateTicketCreate(requireObject(body));
		const now = this.nowMs();
		const customer = this.findOrCreateCustomer(input.customer, now);
		const record: TicketRecord = {
			seq: this.tickets.length + 1,
			subject: input.subject,
			description: input.description,
			priority: input.priority,
			status: input.status,
			customer,
			createdAt: now,
			updatedAt: now,
			custom: nonEmpty(input.custom),
		};
		this.addTicket(record);
		const created = this.emitted('ticket.created', renderTicket(record));
		return this.ticketCreatedRule ? this.updateTicket(created.id, this.ticketCreatedRule) : created;
	}

	/** Any status may follow any other: the spec shows no transition rules (docs/api.md#fields). */
	updateTicket(id: string, body: unknown): Ticket {
		const record = this.requireTicket(id);
		const input = validateTicketUpdate(requireObject(body));
		const now = this.nowMs();
		if (input.customer !== undefined)
			record.customer = this.findOrCreateCustomer(input.customer, now);
		if (input.subject !== undefined) record.subject = input.subject;
		if (input.description !== undefined) record.description = input.description;
		if (input.priority !== undefined) record.priority = input.priority;
		if (input.status !== undefined) record.status = input.status;
		record.custom = mergeCustom(record.custom, input.custom);
		this.touchTicket(record, now);
		return this.emitted('ticket.updated', renderTicket(record));
	}

	createReply(ticketId: string, body: unknown): Reply {
		const ticket = this.requireTicket(ticketId);
		const input = validateReplyCreate(requireObject(body));
		const now = this.nowMs();
		const record = this.addReply(ticket, {
			body: input.body,
			createdAt: now,
			custom: nonEmpty(input.custom),
		});
		// By default a reply changes the ticket, as in many helpdesks: its updated_at moves to the
		// reply's created_at, so a reconcile by updated_at finds tickets with new replies. With
		// replyMovesTicket off the ticket is left as it was. Either way the only event is
		// reply.created (its ticket_id names the ticket to re-read).
		if (this.replyMovesTicket) this.touchTicket(ticket, now);
		return this.emitted('reply.created', renderReply(record));
	}

	createCustomer(body: unknown): Customer {
		const input = validateCustomerCreate(requireObject(body));
		this.assertEmailFree(input.email);
		const now = this.nowMs();
		const record = this.addCustomer({
			email: input.email,
			name: input.name ?? null,
			createdAt: now,
			updatedAt: now,
			custom: nonEmpty(input.custom),
		});
		return this.emitted('customer.created', renderCustomer(record));
	}

	updateCustomer(id: string, body: unknown): Customer {
		const record = this.requireCustomer(id);
		const input = validateCustomerUpdate(requireObject(body));
		if (input.email !== undefined) {
			this.assertEmailFree(input.email, record);
			this.customersByEmail.delete(record.email.toLowerCase());
			record.email = input.email;
			this.customersByEmail.set(record.email.toLowerCase(), record);
		}
		if (input.name !== undefined) record.name = input.name;
		record.custom = mergeCustom(record.custom, input.custom);
		record.updatedAt = this.nowMs();
		return this.emitted('customer.updated', renderCustomer(record));
	}

	// ---- seeding (no validation, no events) -----------------------------------------------------

	/** Runs `load` with index maintenance deferred to one sort at the end (seeding 1M tickets). */
	bulkLoad(load: () => void): void {
		this.bulkLoading = true;
		for (const index of this.allIndexes()) index.beginBulk();
		try {
			load();
		} finally {
			this.bulkLoading = false;
			for (const index of this.allIndexes()) index.endBulk();
		}
	}

	insertSeedCustomer(data: SeedCustomer): CustomerRecord {
		if (this.customersByEmail.has(data.email.toLowerCase()))
			throw new Error(`seed: duplicate e-mail ${data.email}`);
		return this.addCustomer(data);
	}

	insertSeedTicket(data: SeedTicket): TicketRecord {
		const record: TicketRecord = { seq: this.tickets.length + 1, ...data };
		this.addTicket(record);
		return record;
	}

	insertSeedReply(ticket: TicketRecord, data: SeedReply): void {
		this.addReply(ticket, data);
	}

	// ---- internals -----------------------------------------------------------------------------

	private nowMs(): number {
		return Math.floor(this.now());
	}

	/** Emits `event` with `data` and hands `data` back: what every write returns. */
	private emitted<T extends Ticket | Reply | Customer>(event: StoreEventName, data: T): T {
		this.emit(event, data);
		return data;
	}

	/** Moves a ticket's updated_at to `now`, re-indexing it under the new value. */
	private touchTicket(record: TicketRecord, now: number): void {
		this.ticketsByUpdatedAt.remove(record);
		record.updatedAt = now;
		this.ticketsByUpdatedAt.insert(record);
	}

	private emit(event: StoreEventName, data: Ticket | Reply | Customer): void {
		for (const listener of this.listeners) listener(event, data);
	}

	private findTicket(id: string): TicketRecord | undefined {
		const seq = parseId(ID_PREFIX.ticket, id);
		return seq === undefined ? undefined : this.tickets[seq - 1];
	}

	private findCustomer(id: string): CustomerRecord | undefined {
		const seq = parseId(ID_PREFIX.customer, id);
		return seq === undefined ? undefined : this.customers[seq - 1];
	}

	private requireTicket(id: string): TicketRecord {
		const record = this.findTicket(id);
		if (record === undefined) throw notFound('Ticket', id);
		return record;
	}

	private requireCustomer(id: string): CustomerRecord {
		const record = this.findCustomer(id);
		if (record === undefined) throw notFound('Customer', id);
		return record;
	}

	private ticketIndex(sortBy: TicketSortKey): KeysetIndex<TicketRecord> {
		return sortBy === 'updated_at' ? this.ticketsByUpdatedAt : this.ticketsByCreatedAt;
	}

	private addTicket(record: TicketRecord): void {
		this.tickets.push(record);
		this.ticketsByCreatedAt.insert(record);
		this.ticketsByUpdatedAt.insert(record);
	}

	private addCustomer(data: SeedCustomer): CustomerRecord {
		const record: CustomerRecord = { seq: this.customers.length + 1, ...data };
		this.customers.push(record);
		this.customersByEmail.set(record.email.toLowerCase(), record);
		this.customersByCreatedAt.insert(record);
		return record;
	}

	private addReply(ticket: TicketRecord, data: SeedReply): ReplyRecord {
		const record: ReplyRecord = { seq: ++this.replies, ticket, ...data };
		let index = this.repliesByTicket.get(ticket);
		if (index === undefined) {
			index = new KeysetIndex<ReplyRecord>(replyCreatedAt);
			if (this.bulkLoading) index.beginBulk();
			this.repliesByTicket.set(ticket, index);
		}
		index.insert(record);
		return record;
	}

	/**
	 * A ticket's customer is matched by e-mail (case-insensitive). An existing customer is
	 * linked unchanged (a different name in the ticket body does not rename it); an unknown
	 * e-mail creates the customer and emits customer.created before the ticket event.
	 */
	private findOrCreateCustomer(reference: CustomerReference, now: number): CustomerRecord {
		const existing = this.customersByEmail.get(reference.email.toLowerCase());
		if (existing !== undefined) return existing;
		const record = this.addCustomer({
			email: reference.email,
			name: reference.name ?? null,
			createdAt: now,
			updatedAt: now,
		});
		this.emit('customer.created', renderCustomer(record));
		return record;
	}

	private assertEmailFree(email: string, self?: CustomerRecord): void {
		const owner = this.customersByEmail.get(email.toLowerCase());
		if (owner !== undefined && owner !== self) {
			throw validationFailed({
				email: [`is already used by customer ${renderCustomer(owner).id}`],
			});
		}
	}

	private *allIndexes(): Iterable<
		KeysetIndex<TicketRecord> | KeysetIndex<CustomerRecord> | KeysetIndex<ReplyRecord>
	> {
		yield this.ticketsByCreatedAt;
		yield this.ticketsByUpdatedAt;
		yield this.customersByCreatedAt;
		yield* this.repliesByTicket.values();
	}
}

/** The HTTP layer checks this too; repeated here so store helpers reject the same input. */
export function requireObject(body: unknown): JsonObject {
	if (!isJsonObject(body))
		throw new ApiError(400, 'invalid_json', 'The request body must be a JSON object.');
	return body;
}

/** Shared key function: one closure for all reply indexes, not one per ticket. */
const replyCreatedAt = (reply: ReplyRecord): number => reply.createdAt;

function ticketFilter(options: TicketListOptions): ((t: TicketRecord) => boolean) | undefined {
	const { status, priority } = options;
	if (status === undefined && priority === undefined) return undefined;
	return (t) =>
		(status === undefined || t.status === status) &&
		(priority === undefined || t.priority === priority);
}

function toPage<R extends { readonly seq: number }, T>(
	records: R[],
	hasMore: boolean,
	index: KeysetIndex<R>,
	render: (r: R) => T,
): Page<T> {
	const lastRecord = records[records.length - 1];
	return { items: records.map(render), hasMore, last: lastRecord && index.positionOf(lastRecord) };
}

function nonEmpty(custom: JsonObject): JsonObject | undefined {
	return Object.keys(custom).length > 0 ? custom : undefined;
}

/** PATCH semantics for custom fields: given keys are set (null is stored as null), others kept. */
function mergeCustom(current: JsonObject | undefined, changes: JsonObject): JsonObject | undefined {
	if (Object.keys(changes).length === 0) return current;
	const merged: JsonObject = Object.create(null) as JsonObject;
	Object.assign(merged, current, changes);
	return merged;
}
