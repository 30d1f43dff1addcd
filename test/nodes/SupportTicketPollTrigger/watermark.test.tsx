import { compareTimestamps, isSeen, lowest, stampOf } from '../../../nodes/SupportTicketPollTrigger/watermark';

describe('poll watermark timestamps', () => {
	it('compares ISO with and without zone, and Unix seconds or milliseconds, as the same instants', () => {
		const forms = ['2025-06-01T12:00:00.000Z', '2025-06-01T12:00:00', '2025-06-01T14:00:00+02:00', '1748779200', '1748779200000'];
		for (const a of forms) for (const b of forms) expect(compareTimestamps(a, b)).toBe(0);
		expect(compareTimestamps('2025-06-01T12:00:00', '2025-06-01T12:00:00.001Z')).toBeLessThan(0);
		expect(compareTimestamps('1748779201', '2025-06-01T12:00:00.999Z')).toBeGreaterThan(0);
	});

	it('stamps a record with a numeric created_at (kept as text in the watermark) and takes its position', () => {
		const stamped = stampOf({ id: 'tkt_1', created_at: 1748779200 }, 'created_at');
		expect(stamped).toEqual({ id: 'tkt_1', at: '1748779200', record: { id: 'tkt_1', created_at: 1748779200 } });
		if (!('at' in stamped)) throw new Error('not stamped');
		const watermark = lowest(null, [stamped]);
		expect(watermark).toEqual({ at: '1748779200', ids: ['tkt_1'] });
		expect(isSeen(stamped, watermark)).toBe(true);
	});

	it.each([
		[{ id: 'tkt_1' }, 'without created_at'],
		[{ id: 'tkt_1', created_at: '' }, 'without created_at'],
		[{ id: 'tkt_1', created_at: null }, 'without created_at'],
		[{ created_at: '2025-06-01T12:00:00Z' }, 'without id'],
		[{ id: 'tkt_1', created_at: 'yesterday' }, 'whose created_at "yesterday" is not a date and time'],
		[{ id: 'tkt_1', created_at: { at: 1 } }, 'whose created_at {"at":1} is not a date and time'],
	])('names what is wrong with %j', (record, problem) => {
		expect(stampOf(record, 'created_at')).toEqual({ problem });
	});
});
