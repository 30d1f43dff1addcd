// The import/webhook race forced: the import's next page is held until the webhook workflow asked for a replied-to ticket
// on it, and that read until the page was sent, so both find no row and both write one (bounded by MAX_HOLD_MS).
import type { AnswerGate, Sandbox, Ticket } from '../../../sandbox';
import { TICKET_LIST } from './syncTables';

/** Old tickets of the next page that get a reply while a page is answered. */
const REPLIES_PER_PAGE = 3;
/** Old: updated_at before the proof's start minus this (outside the reconcile's 10-minute overlap). */
export const OLD_FOR_MS = 15 * 60_000;
/** After the page is sent, the held reads of its tickets are answered at these offsets (one per ticket, cycling). */
const RELEASE_OFFSETS_MS = [0, 250, 750];
/** A held read is answered after this long even if its page never comes (a worker slot is not held forever); a held page, if none of its tickets is asked for. */
const MAX_HOLD_MS = 30_000;
const PAGE_SIZE = 100;

const TICKET_READ = /\/tickets\/([^/]+)$/;

/** A promise and the function that resolves it. */
function signal(): { done: Promise<void>; mark: () => void } {
	let mark: () => void = () => undefined;
	const done = new Promise<void>((resolve) => (mark = resolve));
	return { done, mark };
}

interface Target {
	/** Offset after the page is sent at which this ticket's held reads are answered. */
	offsetMs: number;
	/** The page holding the ticket has been sent. */
	pageSent: ReturnType<typeof signal>;
	sent: boolean;
	/** The webhook workflow has asked for the ticket. */
	readAsked: ReturnType<typeof signal>;
	asked: boolean;
}

/** On the import's ticket pages (the default order; the reconcile sorts by updated_at) until stop(). */
export function forceImportRace(sandbox: Sandbox, startedAtMs: number) {
	// Reads: held until their page was sent, late (after it, not held), timed out; pages: held until a read came, timed out.
	const figures = {
		pages: 0,
		replies: 0,
		readsHeld: 0,
		readsLate: 0,
		readsTimedOut: 0,
		pagesHeld: 0,
		pagesTimedOut: 0,
	};
	const targets = new Map<string, Target>();
	/** Pending waits: stop() ends them all at once, so no request stays held. */
	const waits = new Map<NodeJS.Timeout, () => void>();
	let active = true;

	const wait = (ms: number): Promise<void> =>
		new Promise((resolve) => {
			const timer = setTimeout(() => {
				waits.delete(timer);
				resolve();
			}, ms);
			waits.set(timer, resolve);
		});

	/** Page k is being answered: reply to old tickets of page k+1, which the import reads next. */
	const prepareNextPage = (page: Ticket[]): void => {
		const last = page.at(-1);
		if (!last) return;
		const all = sandbox.store.listTickets();
		const at = all.findIndex((t) => t.id === last.id);
		const next = all.slice(at + 1, at + 1 + PAGE_SIZE);
		const old = next
			.filter((t) => Date.parse(t.updated_at) < startedAtMs - OLD_FOR_MS && !targets.has(t.id))
			.slice(0, REPLIES_PER_PAGE);
		if (old.length === 0) return;
		figures.pages++;
		old.forEach((ticket, i) => {
			targets.set(ticket.id, {
				offsetMs: RELEASE_OFFSETS_MS[i % RELEASE_OFFSETS_MS.length],
				pageSent: signal(),
				sent: false,
				readAsked: signal(),
				asked: false,
			});
			sandbox.store.createReply(ticket.id, { body: `Forced race reply to ${ticket.id}` });
			figures.replies++;
		});
	};

	/** The page holding these targets is about to be written: release their reads once it is out. */
	const pageAnswered = (page: Ticket[]): void => {
		for (const ticket of page) {
			const target = targets.get(ticket.id);
			if (!target || target.sent) continue;
			target.sent = true;
			// The page is written right after the gate returns: one turn later it is out.
			setImmediate(target.pageSent.mark);
		}
	};

	/** Page k+1 is asked for before any of its replied tickets was re-read: wait for the first such read. */
	const holdPage = async (waiting: Target[]): Promise<void> => {
		figures.pagesHeld++;
		const outcome = await Promise.race([
			Promise.race(waiting.map((t) => t.readAsked.done)).then(() => 'read' as const),
			wait(MAX_HOLD_MS).then(() => 'timeout' as const),
		]);
		if (outcome === 'timeout') figures.pagesTimedOut++;
	};

	const holdRead = async (target: Target): Promise<void> => {
		figures.readsHeld++;
		target.asked = true;
		target.readAsked.mark();
		const page = target.pageSent.done.then(() => 'page' as const);
		const outcome = await Promise.race([page, wait(MAX_HOLD_MS).then(() => 'timeout' as const)]);
		if (outcome === 'timeout') {
			figures.readsTimedOut++;
			return;
		}
		if (target.offsetMs > 0) await wait(target.offsetMs);
	};

	const gate: AnswerGate = (entry, answer) => {
		if (!active || entry.method !== 'GET' || answer.status !== 200) return undefined;
		if (TICKET_LIST.test(entry.pathname) && entry.query.sort_by === undefined) {
			const data = (answer.body as { data?: Ticket[] } | undefined)?.data;
			if (!Array.isArray(data)) return undefined;
			prepareNextPage(data);
			const inPage = data
				.map((ticket) => targets.get(ticket.id))
				.filter((t): t is Target => t !== undefined && !t.sent);
			if (inPage.length === 0 || inPage.some((t) => t.asked)) {
				pageAnswered(data);
				return undefined;
			}
			return holdPage(inPage).then(() => pageAnswered(data));
		}
		const read = TICKET_READ.exec(entry.pathname);
		const target = read ? targets.get(decodeURIComponent(read[1])) : undefined;
		if (!target) return undefined;
		if (target.sent) {
			figures.readsLate++;
			return undefined;
		}
		return holdRead(target);
	};
	sandbox.setAnswerGate(gate);

	return {
		stop() {
			active = false;
			sandbox.setAnswerGate(undefined);
			for (const [timer, resolve] of waits) {
				clearTimeout(timer);
				resolve();
			}
			waits.clear();
			for (const target of targets.values()) {
				target.pageSent.mark();
				target.readAsked.mark();
			}
			return { ...figures };
		},
	};
}
