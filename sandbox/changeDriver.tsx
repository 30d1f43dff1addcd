/**
 * Change driver: creates and updates tickets, customers and replies at a steady rate, the
 * activity a sync has to keep up with. It writes through the store (the same validation and
 * webhook events as the API) rather than over HTTP, so the request log, call counts and
 * injected faults stay those of the client under test. Choices are seeded; timing is real.
 */
import { ApiError } from './errors';
import { createRandom, pick, pickWeighted, type Random } from './prng';
import { formatId, ID_PREFIX } from './records';
import type { SandboxStore } from './store';
import { CancellableTimers } from './timers';
import { TICKET_PRIORITIES, TICKET_STATUSES } from './validation';

export const CHANGE_KINDS = [
	'ticket.created',
	'ticket.updated',
	'reply.created',
	'customer.created',
	'customer.updated',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface ChangeDriverOptions {
	/** Changes per second (default 10, at most 1000), spread evenly. */
	ratePerSecond?: number;
	/** Stop after this many changes. */
	count?: number;
	/** Stop after this long. Without count or durationMs the driver runs until stopped. */
	durationMs?: number;
	/** PRNG seed of what changes (default 1). */
	seed?: number;
	/** Relative weights of the change kinds (default ticket.updated 40, ticket.created 20, reply.created 20, customer.updated 10, customer.created 10); 0 turns one off. */
	mix?: Partial<Record<ChangeKind, number>>;
	/**
	 * Half of the ticket updates and replies go to one of the last `hotSet` tickets the driver
	 * touched (default 20), so the same ticket changes several times within seconds, as busy
	 * tickets do; the rest pick any ticket.
	 */
	hotSet?: number;
}

export interface ChangeDriverSummary {
	running: boolean;
	options: ChangeDriverOptions;
	/** Wall-clock ISO times. */
	startedAt: string;
	stoppedAt: string | null;
	/** Changes made, in total and by kind. */
	total: number;
	byKind: Record<ChangeKind, number>;
	/** Changes the store refused (counted, skipped), with the last message. */
	errors: number;
	lastError: string | null;
	/** The service time (store clock, as in updated_at) of the last change, and its wall-clock time. */
	lastChangeAt: string | null;
	lastChangeWallAt: string | null;
	/** Ids the driver touched, by resource: what a sync must have picked up. */
	touched: { tickets: number; customers: number };
}

const DEFAULT_RATE = 10;
const MAX_RATE = 1000;
const DEFAULT_HOT_SET = 20;
const DEFAULT_MIX: Record<ChangeKind, number> = {
	'ticket.updated': 40,
	'ticket.created': 20,
	'reply.created': 20,
	'customer.updated': 10,
	'customer.created': 10,
};

export class ChangeDriver {
	readonly options: ChangeDriverOptions;
	/** Resolves with the summary when the driver stops (count or duration reached, or stop()). */
	readonly finished: Promise<ChangeDriverSummary>;
	private readonly random: Random;
	private readonly timers = new CancellableTimers();
	private readonly mix: ReadonlyArray<readonly [ChangeKind, number]>;
	private readonly hot: string[] = [];
	private readonly touchedTickets = new Set<string>();
	private readonly touchedCustomers = new Set<string>();
	private readonly byKind = Object.fromEntries(CHANGE_KINDS.map((k) => [k, 0])) as Record<
		ChangeKind,
		number
	>;
	private readonly startedAt = Date.now();
	private stoppedAt: number | null = null;
	private stopRequested = false;
	private total = 0;
	private errors = 0;
	private lastError: string | null = null;
	private lastChangeAt: number | null = null;
	private lastChangeWallAt: number | null = null;

	constructor(
		private readonly store: SandboxStore,
		private readonly now: () => number,
		options: ChangeDriverOptions = {},
	) {
		this.options = validateChangeDriverOptions(options);
		this.random = createRandom(this.options.seed ?? 1);
		const mix = { ...DEFAULT_MIX, ...this.options.mix };
		this.mix = CHANGE_KINDS.map((k) => [k, mix[k]] as const).filter(([, weight]) => weight > 0);
		this.finished = this.loop();
	}

	get running(): boolean {
		return this.stoppedAt === null;
	}

	/** Stops after the change in progress (if any); resolves with the summary. Idempotent. */
	stop(): Promise<ChangeDriverSummary> {
		this.stopRequested = true;
		this.timers.cancelAll();
		return this.finished;
	}

	summary(): ChangeDriverSummary {
		const iso = (ms: number | null): string | null =>
			ms === null ? null : new Date(ms).toISOString();
		return {
			running: this.running,
			options: this.options,
			startedAt: new Date(this.startedAt).toISOString(),
			stoppedAt: iso(this.stoppedAt),
			total: this.total,
			byKind: { ...this.byKind },
			errors: this.errors,
			lastError: this.lastError,
			lastChangeAt: iso(this.lastChangeAt),
			lastChangeWallAt: iso(this.lastChangeWallAt),
			touched: { tickets: this.touchedTickets.size, customers: this.touchedCustomers.size },
		};
	}

	private async loop(): Promise<ChangeDriverSummary> {
		const interval = 1000 / (this.options.ratePerSecond ?? DEFAULT_RATE);
		const { count, durationMs } = this.options;
		// Each change has its due time from the start, so the rate does not drift; if the event
		// loop was busy, the changes that fell due are made at once.
		for (let i = 0; !this.stopRequested; i++) {
			if (count !== undefined && i >= count) break;
			const due = this.startedAt + i * interval;
			if (durationMs !== undefined && due - this.startedAt >= durationMs) break;
			const wait = due - Date.now();
			if (wait > 0) await this.timers.sleep(wait);
			if (this.stopRequested) break;
			this.change();
		}
		this.stoppedAt = Date.now();
		this.timers.cancelAll();
		return this.summary();
	}

	private change(): void {
		const kind = pickWeighted(this.random, this.mix);
		const n = this.total + this.errors + 1;
		try {
			switch (kind) {
				case 'ticket.created': {
					const customer = this.anyCustomer();
					const ticket = this.store.createTicket({
						subject: `Driver ticket ${n}`,
						description: `Created by the change driver (seed ${this.options.seed ?? 1}, change ${n}).`,
						priority: pick(this.random, TICKET_PRIORITIES),
						customer: customer === undefined ? { email: this.newEmail(n) } : { email: customer },
					});
					this.touchTicket(ticket.id);
					break;
				}
				case 'ticket.updated': {
					const id = this.someTicket();
					if (id === undefined) return this.skip(kind);
					const field = pick(this.random, [
						'status',
						'priority',
						'subject',
						'description',
					] as const);
					const body =
						field === 'status'
							? { status: pick(this.random, TICKET_STATUSES) }
							: field === 'priority'
								? { priority: pick(this.random, TICKET_PRIORITIES) }
								: { [field]: `Driver edit ${n}` };
					this.store.updateTicket(id, body);
					this.touchTicket(id);
					break;
				}
				case 'reply.created': {
					const id = this.someTicket();
					if (id === undefined) return this.skip(kind);
					this.store.createReply(id, { body: `Driver reply ${n}` });
					this.touchTicket(id);
					break;
				}
				case 'customer.created': {
					const customer = this.store.createCustomer({
						email: this.newEmail(n),
						name: `Driver Customer ${n}`,
					});
					this.touchedCustomers.add(customer.id);
					break;
				}
				case 'customer.updated': {
					if (this.store.customerCount === 0) return this.skip(kind);
					const id = formatId(
						ID_PREFIX.customer,
						1 + Math.floor(this.random() * this.store.customerCount),
					);
					this.store.updateCustomer(
						id,
						this.random() < 0.8 ? { name: `Driver Rename ${n}` } : { email: this.newEmail(n) },
					);
					this.touchedCustomers.add(id);
					break;
				}
			}
		} catch (error) {
			if (!(error instanceof ApiError)) throw error;
			this.errors++;
			this.lastError = `${kind}: ${error.message}`;
			return;
		}
		this.total++;
		this.byKind[kind]++;
		this.lastChangeAt = Math.floor(this.now());
		this.lastChangeWallAt = Date.now();
	}

	private skip(kind: ChangeKind): void {
		this.errors++;
		this.lastError = `${kind}: nothing to change yet`;
	}

	private touchTicket(id: string): void {
		this.touchedTickets.add(id);
		const at = this.hot.indexOf(id);
		if (at >= 0) this.hot.splice(at, 1);
		this.hot.push(id);
		if (this.hot.length > (this.options.hotSet ?? DEFAULT_HOT_SET)) this.hot.shift();
	}

	private someTicket(): string | undefined {
		if (this.hot.length > 0 && this.random() < 0.5) return pick(this.random, this.hot);
		if (this.store.ticketCount === 0) return undefined;
		return formatId(ID_PREFIX.ticket, 1 + Math.floor(this.random() * this.store.ticketCount));
	}

	private anyCustomer(): string | undefined {
		if (this.store.customerCount === 0) return undefined;
		return this.store.getCustomer(
			formatId(ID_PREFIX.customer, 1 + Math.floor(this.random() * this.store.customerCount)),
		)?.email;
	}

	/** Unique per store: the customer count only grows. */
	private newEmail(n: number): string {
		return `driver.${this.store.customerCount + 1}.${n}@example.com`;
	}
}

/** Checks and copies driver options; throws RangeError naming the bad one. */
export function validateChangeDriverOptions(input: unknown): ChangeDriverOptions {
	if (typeof input !== 'object' || input === null || Array.isArray(input))
		throw new RangeError('driver options must be an object');
	const { ratePerSecond, count, durationMs, seed, mix, hotSet, ...unknown } = input as Record<
		string,
		unknown
	>;
	const unknownKeys = Object.keys(unknown);
	if (unknownKeys.length > 0)
		throw new RangeError(
			`unknown driver option(s): ${unknownKeys.join(', ')}; known: ratePerSecond, count, durationMs, seed, mix, hotSet`,
		);
	const options: ChangeDriverOptions = {};
	if (ratePerSecond !== undefined) {
		if (typeof ratePerSecond !== 'number' || !(ratePerSecond > 0 && ratePerSecond <= MAX_RATE))
			throw new RangeError(`ratePerSecond must be a number above 0 and at most ${MAX_RATE}`);
		options.ratePerSecond = ratePerSecond;
	}
	if (count !== undefined) options.count = nonNegativeInteger('count', count);
	if (durationMs !== undefined) options.durationMs = nonNegativeInteger('durationMs', durationMs);
	if (seed !== undefined) {
		if (!Number.isSafeInteger(seed)) throw new RangeError('seed must be an integer');
		options.seed = seed as number;
	}
	if (hotSet !== undefined) options.hotSet = nonNegativeInteger('hotSet', hotSet);
	if (mix !== undefined) {
		if (typeof mix !== 'object' || mix === null || Array.isArray(mix))
			throw new RangeError('mix must be an object of change kind -> weight');
		const weights: Partial<Record<ChangeKind, number>> = {};
		for (const [kind, weight] of Object.entries(mix)) {
			if (!(CHANGE_KINDS as readonly string[]).includes(kind))
				throw new RangeError(
					`unknown change kind in mix: ${kind}; known: ${CHANGE_KINDS.join(', ')}`,
				);
			if (typeof weight !== 'number' || !(weight >= 0) || !Number.isFinite(weight))
				throw new RangeError(`mix weight of ${kind} must be a non-negative number`);
			weights[kind as ChangeKind] = weight;
		}
		if (!CHANGE_KINDS.some((k) => (weights[k] ?? DEFAULT_MIX[k]) > 0))
			throw new RangeError('mix must leave at least one change kind with a weight above 0');
		options.mix = weights;
	}
	return options;
}

function nonNegativeInteger(name: string, value: unknown): number {
	if (!Number.isSafeInteger(value) || (value as number) < 0)
		throw new RangeError(`${name} must be a non-negative integer`);
	return value as number;
}
