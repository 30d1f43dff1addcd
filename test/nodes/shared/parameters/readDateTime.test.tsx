import type { IExecuteFunctions } from 'n8n-workflow';

import { readDateTime } from '../../../../nodes/shared/parameters/dateTime';

const ctx = {
	getNode: () => ({ name: 'Node', type: 'test', typeVersion: 1, position: [0, 0], parameters: {} }),
} as unknown as IExecuteFunctions;
const read = (value: unknown) => readDateTime(ctx, value, 'Created After', 0);

describe('readDateTime (Created After)', () => {
	it('reads ISO texts, Dates and Luxon-like DateTimes; empty is "not set"', () => {
		const ms = Date.parse('2025-06-01T12:00:00.000Z');
		expect(read('2025-06-01T12:00:00.000Z')).toBe(ms);
		expect(read('2025-06-01T14:00:00+02:00')).toBe(ms);
		expect(read(new Date(ms))).toBe(ms);
		expect(read({ toISO: () => '2025-06-01T12:00:00.000Z' })).toBe(ms);
		expect(read('')).toBeUndefined();
		expect(read('  ')).toBeUndefined();
		expect(read(undefined)).toBeUndefined();
		expect(read(null)).toBeUndefined();
		expect(() => read('last tuesday')).toThrow(
			'Created After "last tuesday" is not a date and time',
		);
		expect(read(1748779200)).toBe(ms); // epoch seconds
		expect(read(ms)).toBe(ms); // epoch milliseconds
		expect(() => read(true)).toThrow('Created After boolean is not a date and time');
	});

	// Without a workflow zone it is parseServiceTimestamp's reading, the same in any machine zone (serviceTimestamp.test.tsx).
	describe("a time without zone read in a time zone (a date picked in the field: the workflow's zone)", () => {
		const inZone = (value: string, zone: string) =>
			new Date(readDateTime(ctx, value, 'Created After', 0, zone) ?? NaN).toISOString();

		it('is the instant the clock there shows it; a zone or Unix time in the value wins', () => {
			expect(inZone('2025-06-01T12:00:00', 'America/New_York')).toBe('2025-06-01T16:00:00.000Z');
			expect(inZone('2025-01-15T12:00:00.250', 'America/New_York')).toBe(
				'2025-01-15T17:00:00.250Z',
			);
			expect(inZone('2025-06-01 12:00', 'Asia/Kathmandu')).toBe('2025-06-01T06:15:00.000Z');
			expect(inZone('2025-06-01', 'Pacific/Kiritimati')).toBe('2025-05-31T10:00:00.000Z');
			expect(inZone('2025-06-01T12:00:00Z', 'America/New_York')).toBe('2025-06-01T12:00:00.000Z');
			expect(inZone('2025-06-01T12:00:00+02:00', 'America/New_York')).toBe(
				'2025-06-01T10:00:00.000Z',
			);
			expect(
				new Date(readDateTime(ctx, 1748779200, 'x', 0, 'Asia/Tokyo') ?? NaN).toISOString(),
			).toBe('2025-06-01T12:00:00.000Z');
		});

		it('around a change of offset: a time that happens twice is its first occurrence, a skipped one moves forward', () => {
			expect(inZone('2025-11-02T01:30:00', 'America/New_York')).toBe('2025-11-02T05:30:00.000Z'); // 01:30 EDT, not EST
			expect(inZone('2025-03-09T02:30:00', 'America/New_York')).toBe('2025-03-09T07:30:00.000Z'); // = 03:30 EDT
			expect(inZone('2025-03-30T02:30:00', 'Europe/Berlin')).toBe('2025-03-30T01:30:00.000Z'); // = 03:30 CEST
			expect(inZone('2025-10-26T02:30:00', 'Europe/Berlin')).toBe('2025-10-26T00:30:00.000Z'); // 02:30 CEST
		});

		it('an unknown time zone is an error naming it', () => {
			expect(() =>
				readDateTime(ctx, '2025-06-01T12:00:00', 'Created After', 0, 'Mars/Olympus'),
			).toThrow('The workflow\'s time zone "Mars/Olympus" is unknown');
		});
	});
});
