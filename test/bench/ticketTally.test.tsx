import { TicketTally } from '../../bench/ticketTally';

describe('TicketTally', () => {
	it('counts each seeded ticket once and tells duplicates and foreign ids apart', () => {
		const tally = new TicketTally(20);
		for (const id of ['tkt_1', 'tkt_8', 'tkt_20', 'tkt_8', 'tkt_21', 'tkt_0', 'tkt_01', 'rep_3', 42, undefined]) tally.add(id);
		expect(tally.read()).toEqual({ written: 10, distinct: 3, duplicates: 1, unknown: 6 });
	});

	it('runs milestones once each, in order, when the written count reaches them; reset forgets everything', () => {
		const tally = new TicketTally(10);
		const seen: string[] = [];
		tally.onceWritten(3, () => seen.push(`b@${tally.read().written}`));
		tally.onceWritten(2, () => seen.push(`a@${tally.read().written}`));
		tally.onceWritten(3, () => seen.push(`c@${tally.read().written}`));
		for (let seq = 1; seq <= 5; seq++) tally.add(`tkt_${seq}`);
		expect(seen).toEqual(['a@2', 'b@3', 'c@3']);
		tally.reset();
		tally.add('tkt_1');
		expect(tally.read()).toEqual({ written: 1, distinct: 1, duplicates: 0, unknown: 0 });
	});
});
