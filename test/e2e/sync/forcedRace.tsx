/**
 * The race the sync must survive, forced instead of hoped for: while the initial import reads a
 * page of tickets, replies are written to old tickets on that page, and the webhook workflow's
 * re-read of such a ticket is answered right after the page, so both workflows look for the
 * ticket's row at about the same moment, find none, and both write one. What it takes:
 * - the page answer is held until the webhook workflow asks for one of those tickets (the reply's
 *   delivery reached n8n; the wait is bounded, as chaos may drop all of a page's deliveries);
 * - those ticket reads are held until the page has been sent, then answered.
 * On a service where a reply leaves the ticket's updated_at alone, the reconcile never reads these
 * tickets again: only a sweep of the tables removes the second row.
 */
import type { AnswerGate, Sandbox, Ticket } from '../../sandbox';

export interface ForcedRaceSettings {
	/** Replies per import page, to the first old tickets on it. */
	repliesPerPage: number;
	/** Old: updated_at before the proof's start minus this (outside the reconcile's 10-minute overlap). */
	oldForMs: number;
	/** Bound of the wait for a delivery to reach n8n (chaos may drop every one of a page). */
	maxHoldMs: number;
}

export const DEFAULT_FORCED_RACE: ForcedRaceSettings = { repliesPerPage: 5, oldForMs: 15 * 60_000, maxHoldMs: 20_000 };

export interface ForcedRaceFigures {
	/** Import pages held until a webhook execution read one of their tickets. */
	pagesHeld: number;
	/** Replies written to old tickets on those pages. */
	replies: number;
	/** Ticket reads of the webhook workflow held until their page was sent. */
	readsHeld: number;
	/** Pages whose deliveries all failed to arrive within maxHoldMs (sent anyway). */
	timedOut: number;
}

export interface ForcedRace {
	/** Stops forcing (the gate stays until then). */
	stop(): ForcedRaceFigures;
}

const TICKET_LIST = /\/tickets$/;
const TICKET_READ = /\/tickets\/([^/]+)$/;

interface PendingPage {
	ids: Set<string>;
	/** Resolves when a read of one of `ids` arrived. */
	arrived: Promise<void>;
	markArrived(): void;
	/** Resolves once the page answer has been sent. */
	sent: Promise<void>;
	markSent(): void;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
	let resolve: () => void = () => undefined;
	const promise = new Promise<void>((r) => (resolve = r));
	return { promise, resolve };
}

/**
 * Forces the race on every page of the import (ticket list pages in the default order; the
 * reconcile sorts by updated_at and is left alone) until stop().
 */
export function forceImportRace(sandbox: Sandbox, startedAtMs: number, settings: ForcedRaceSettings = DEFAULT_FORCED_RACE): ForcedRace {
	const figures: ForcedRaceFigures = { pagesHeld: 0, replies: 0, readsHeld: 0, timedOut: 0 };
	const pageByTicket = new Map<string, PendingPage>();
	let active = true;
	const timers = new Set<NodeJS.Timeout>();

	const holdPage = async (tickets: Ticket[]): Promise<void> => {
		const old = tickets.filter((t) => Date.parse(t.updated_at) < startedAtMs - settings.oldForMs && !pageByTicket.has(t.id)).slice(0, settings.repliesPerPage);
		if (old.length === 0) return;
		const arrived = deferred();
		const sent = deferred();
		const page: PendingPage = { ids: new Set(old.map((t) => t.id)), arrived: arrived.promise, markArrived: arrived.resolve, sent: sent.promise, markSent: sent.resolve };
		for (const ticket of old) {
			pageByTicket.set(ticket.id, page);
			sandbox.store.createReply(ticket.id, { body: `Forced race reply to ${ticket.id}` });
			figures.replies++;
		}
		figures.pagesHeld++;
		let timedOut = false;
		const bound = new Promise<void>((resolve) => {
			const timer = setTimeout(() => {
				timedOut = true;
				resolve();
			}, settings.maxHoldMs);
			timers.add(timer);
			void page.arrived.then(() => {
				clearTimeout(timer);
				timers.delete(timer);
			});
		});
		await Promise.race([page.arrived, bound]);
		if (timedOut) figures.timedOut++;
		// The page is written right after this gate returns; the held reads go out one turn later.
		setImmediate(page.markSent);
	};

	const holdRead = async (id: string): Promise<void> => {
		const page = pageByTicket.get(id);
		if (!page) return;
		figures.readsHeld++;
		page.markArrived();
		await page.sent;
		await new Promise<void>((resolve) => setImmediate(resolve));
	};

	const gate: AnswerGate = (entry, answer) => {
		if (!active || entry.method !== 'GET' || answer.status !== 200) return undefined;
		if (TICKET_LIST.test(entry.pathname) && entry.query.sort_by === undefined) {
			const body = answer.body as { data?: Ticket[] } | undefined;
			return Array.isArray(body?.data) ? holdPage(body.data) : undefined;
		}
		const read = TICKET_READ.exec(entry.pathname);
		return read && pageByTicket.has(decodeURIComponent(read[1])) ? holdRead(decodeURIComponent(read[1])) : undefined;
	};
	sandbox.setAnswerGate(gate);

	return {
		stop() {
			active = false;
			sandbox.setAnswerGate(undefined);
			for (const timer of timers) clearTimeout(timer);
			for (const page of new Set(pageByTicket.values())) {
				page.markArrived();
				page.markSent();
			}
			return { ...figures };
		},
	};
}
