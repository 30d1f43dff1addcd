// The import/webhook race forced: the import's next page is held until the webhook workflow asked for a replied-to ticket
// on it, and that read until the page was sent, so both find no row and both write one (bounded by maxHoldMs).
import type { AnswerGate, Sandbox, Ticket } from '../../../sandbox';

export interface ForcedRaceSettings {
	/** Old tickets of the next page that get a reply while a page is answered. */
	repliesPerPage: number;
	/** Old: updated_at before the proof's start minus this (outside the reconcile's 10-minute overlap). */
	oldForMs: number;
	/** After the page is sent, the held reads of its tickets are answered at these offsets (one per ticket, cycling). */
	releaseOffsetsMs: number[];
	/** A held read is answered after this long even if its page never comes (a worker slot is not held forever); a held page, if none of its tickets is asked for. */
	maxHoldMs: number;
	/** Import list pages hold 100 tickets. */
	pageSize: number;
}

export const DEFAULT_FORCED_RACE: ForcedRaceSettings = { repliesPerPage: 3, oldForMs: 15 * 60_000, releaseOffsetsMs: [0, 250, 750], maxHoldMs: 30_000, pageSize: 100 };

export interface ForcedRaceFigures {
	/** Import pages whose next page got replies. */
	pages: number;
	/** Replies written to old tickets of the next page. */
	replies: number;
	/** Webhook reads of those tickets held until their page had been sent. */
	readsHeld: number;
	/** Reads that came after their page (not held). */
	readsLate: number;
	/** Held reads answered after maxHoldMs without their page. */
	readsTimedOut: number;
	/** Import pages held until a re-read of one of their tickets came. */
	pagesHeld: number;
	/** Held pages answered after maxHoldMs without such a read. */
	pagesTimedOut: number;
}

export interface ForcedRace {
	/** Stops forcing; answers every held read. */
	stop(): ForcedRaceFigures;
}

const TICKET_LIST = /\/tickets$/;
const TICKET_READ = /\/tickets\/([^/]+)$/;

interface Target {
	/** Offset after the page is sent at which this ticket's held reads are answered. */
	offsetMs: number;
	/** Resolves once the page holding the ticket has been sent. */
	pageSent: Promise<void>;
	markPageSent(): void;
	sent: boolean;
	/** Resolves once the webhook workflow has asked for the ticket. */
	readAsked: Promise<void>;
	markReadAsked(): void;
	asked: boolean;
}

/** On the import's ticket pages (the default order; the reconcile sorts by updated_at) until stop(). */
export function forceImportRace(sandbox: Sandbox, startedAtMs: number, settings: ForcedRaceSettings = DEFAULT_FORCED_RACE): ForcedRace {
	const figures: ForcedRaceFigures = { pages: 0, replies: 0, readsHeld: 0, readsLate: 0, readsTimedOut: 0, pagesHeld: 0, pagesTimedOut: 0 };
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
		const next = all.slice(at + 1, at + 1 + settings.pageSize);
		const old = next.filter((t) => Date.parse(t.updated_at) < startedAtMs - settings.oldForMs && !targets.has(t.id)).slice(0, settings.repliesPerPage);
		if (old.length === 0) return;
		figures.pages++;
		old.forEach((ticket, i) => {
			let markPageSent: () => void = () => undefined;
			const pageSent = new Promise<void>((resolve) => (markPageSent = resolve));
			let markReadAsked: () => void = () => undefined;
			const readAsked = new Promise<void>((resolve) => (markReadAsked = resolve));
			targets.set(ticket.id, { offsetMs: settings.releaseOffsetsMs[i % settings.releaseOffsetsMs.length], pageSent, markPageSent, sent: false, readAsked, markReadAsked, asked: false });
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
			setImmediate(target.markPageSent);
		}
	};

	/** Page k+1 is asked for before any of its replied tickets was re-read: wait for the first such read. */
	const holdPage = async (waiting: Target[]): Promise<void> => {
		figures.pagesHeld++;
		const outcome = await Promise.race([Promise.race(waiting.map((t) => t.readAsked)).then(() => 'read' as const), wait(settings.maxHoldMs).then(() => 'timeout' as const)]);
		if (outcome === 'timeout') figures.pagesTimedOut++;
	};

	const holdRead = async (target: Target): Promise<void> => {
		figures.readsHeld++;
		target.asked = true;
		target.markReadAsked();
		const page = target.pageSent.then(() => 'page' as const);
		const outcome = await Promise.race([page, wait(settings.maxHoldMs).then(() => 'timeout' as const)]);
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
			const inPage = data.map((ticket) => targets.get(ticket.id)).filter((t): t is Target => t !== undefined && !t.sent);
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
				target.markPageSent();
				target.markReadAsked();
			}
			return { ...figures };
		},
	};
}
