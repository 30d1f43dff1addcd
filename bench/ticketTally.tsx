/**
 * Which tickets an import wrote, one bit per ticket: proves every seeded ticket was written
 * exactly once without holding the tickets, so counting does not weigh on the memory being
 * measured (n/8 bytes, allocated before the measured import starts).
 *
 * The sandbox's seeded tickets are `tkt_1` … `tkt_<n>`; any other id counts as unknown.
 */
const ID = /^tkt_([1-9][0-9]*)$/;

export interface TallyFigures {
	/** Items that reached the writer. */
	written: number;
	/** Distinct seeded tickets among them. */
	distinct: number;
	/** Items whose ticket had been written before. */
	duplicates: number;
	/** Items without the id of a seeded ticket. */
	unknown: number;
}

export class TicketTally {
	private readonly seen: Uint8Array;
	private figures: TallyFigures = { written: 0, distinct: 0, duplicates: 0, unknown: 0 };
	/** Called once each, in order of `at`, after the item that brings `written` to `at`. */
	private milestones: Array<{ at: number; callback: () => void }> = [];

	constructor(readonly tickets: number) {
		this.seen = new Uint8Array(Math.ceil((tickets + 1) / 8));
	}

	add(id: unknown): void {
		const figures = this.figures;
		figures.written++;
		const seq = typeof id === 'string' ? Number(ID.exec(id)?.[1] ?? Number.NaN) : Number.NaN;
		if (!(seq <= this.tickets)) figures.unknown++;
		else {
			const byte = seq >> 3;
			const bit = 1 << (seq & 7);
			if (this.seen[byte] & bit) figures.duplicates++;
			else {
				this.seen[byte] |= bit;
				figures.distinct++;
			}
		}
		while (this.milestones.length > 0 && figures.written >= this.milestones[0].at) {
			const milestone = this.milestones.shift();
			milestone?.callback();
		}
	}

	/** Runs `callback` (e.g. a memory sample) as soon as `written` reaches `at`. */
	onceWritten(at: number, callback: () => void): void {
		this.milestones.push({ at, callback });
		this.milestones.sort((a, b) => a.at - b.at);
	}

	read(): TallyFigures {
		return { ...this.figures };
	}

	/** Forgets everything written so far (after the warm-up). */
	reset(): void {
		this.seen.fill(0);
		this.figures = { written: 0, distinct: 0, duplicates: 0, unknown: 0 };
		this.milestones = [];
	}
}
