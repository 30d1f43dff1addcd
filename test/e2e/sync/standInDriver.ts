/**
 * STAND-IN until the sandbox's change driver (branch chaos) lands: changes tickets, customers and
 * replies in the sandbox's store at a steady rate (store writes emit the same webhook events as the API).
 */
import type { Sandbox } from '../../sandbox';
import { createRandom, pick, pickWeighted } from '../../sandbox/prng';
import { TICKET_PRIORITIES, TICKET_STATUSES } from '../../sandbox';

export interface DriverSummary {
	changes: number;
	byKind: Record<string, number>;
	lastChangeAt: number;
}

export interface RunningDriver {
	done: Promise<DriverSummary>;
	stop(): Promise<DriverSummary>;
}

type Kind = 'ticket.update' | 'ticket.create' | 'reply.create' | 'customer.update' | 'customer.create';

export function startStandInDriver(sandbox: Sandbox, options: { perSecond: number; count: number; seed: number }): RunningDriver {
	const random = createRandom(options.seed);
	const summary: DriverSummary = { changes: 0, byKind: {}, lastChangeAt: 0 };
	const store = sandbox.store;
	let stopped = false;
	const tickets = store.listTickets().map((t) => t.id);
	const customers = store.listCustomers().map((c) => c.id);
	const change = (): void => {
		const kind = pickWeighted<Kind>(random, [
			['ticket.update', 50],
			['ticket.create', 15],
			['reply.create', 15],
			['customer.update', 10],
			['customer.create', 10],
		]);
		const n = summary.changes + 1;
		if (kind === 'ticket.update') {
			store.updateTicket(pick(random, tickets), { status: pick(random, TICKET_STATUSES), priority: pick(random, TICKET_PRIORITIES), subject: `Changed ${n}` });
		} else if (kind === 'ticket.create') {
			tickets.push(store.createTicket({ subject: `New ${n}`, description: `Created by the driver (${n})`, customer: { email: store.getCustomer(pick(random, customers))?.email ?? 'driver@example.com' } }).id);
		} else if (kind === 'reply.create') {
			store.createReply(pick(random, tickets), { body: `Reply ${n}` });
		} else if (kind === 'customer.update') {
			store.updateCustomer(pick(random, customers), { name: `Renamed ${n}` });
		} else {
			customers.push(store.createCustomer({ email: `driver.${options.seed}.${n}@example.com`, name: `Driver ${n}` }).id);
		}
		summary.changes++;
		summary.byKind[kind] = (summary.byKind[kind] ?? 0) + 1;
		summary.lastChangeAt = Date.now();
	};
	let timer: NodeJS.Timeout | undefined;
	const done = new Promise<DriverSummary>((resolve) => {
		const started = Date.now();
		const tick = (): void => {
			if (stopped || summary.changes >= options.count) return resolve(summary);
			const due = Math.floor(((Date.now() - started) / 1000) * options.perSecond);
			while (summary.changes < Math.min(due, options.count)) change();
			timer = setTimeout(tick, 20);
		};
		tick();
	});
	return {
		done,
		stop: async () => {
			stopped = true;
			if (timer) clearTimeout(timer);
			return summary;
		},
	};
}
