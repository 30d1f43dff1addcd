import { execFileSync } from 'node:child_process';

import { parseServiceTimestamp } from '../../../../nodes/shared/parameters/serviceTimestamp';

const ms = Date.parse('2025-06-01T12:00:00.000Z');

describe('parseServiceTimestamp', () => {
	it.each([
		['ISO with Z', '2025-06-01T12:00:00.000Z', ms],
		['ISO with an offset', '2025-06-01T14:00:00+02:00', ms],
		['ISO with an offset without colon', '2025-06-01T14:00:00+0200', ms],
		['ISO without zone: UTC', '2025-06-01T12:00:00', ms],
		['ISO without zone, space, no seconds: UTC', '2025-06-01 12:00', ms],
		['ISO without zone, microseconds: UTC, to the millisecond', '2025-06-01T12:00:00.123456', ms + 123],
		['a date alone: UTC midnight', '2025-06-01', Date.parse('2025-06-01T00:00:00Z')],
		['an HTTP date', 'Sun, 01 Jun 2025 12:00:00 GMT', ms],
		['epoch seconds', ms / 1000, ms],
		['epoch seconds with a fraction', ms / 1000 + 0.5, ms + 500],
		['epoch milliseconds', ms, ms],
		['epoch seconds as text', String(ms / 1000), ms],
		['epoch milliseconds as text', ` ${ms} `, ms],
		['a Date', new Date(ms), ms],
		['Unix seconds as text of the earliest real tickets (1973)', '100000000', 100_000_000_000],
	])('%s', (_name, value, expected) => {
		expect(parseServiceTimestamp(value)).toBe(expected);
	});

	it.each([
		['a word', 'yesterday'],
		['a local-time text without zone that is not ISO', 'June 1, 2025 12:00'],
		['empty', ''],
		['NaN', Number.NaN],
		['Infinity', Number.POSITIVE_INFINITY],
		['an object', { at: 1 }],
		['a boolean', true],
		['null', null],
		['an invalid date', new Date(Number.NaN)],
		['an impossible ISO date', '2025-13-45T12:00:00Z'],
		['30 February (not 1 March)', '2024-02-30T10:00:00Z'],
		// Read as seconds these would be a moment in 1970: Created After "2024" would list every ticket.
		['a year', '2024'],
		['an ISO basic-format date', '20240101'],
	])('unreadable: %s', (_name, value) => {
		expect(parseServiceTimestamp(value)).toBeUndefined();
	});

	it('reads the same instant whatever the machine zone (checked in child processes: TZ cannot change inside jest)', () => {
		const script = `
			const { parseServiceTimestamp } = require(${JSON.stringify(require.resolve('../../../../nodes/shared/parameters/serviceTimestamp'))});
			process.stdout.write(JSON.stringify([new Date(${ms}).getTimezoneOffset(),
				parseServiceTimestamp('2025-06-01T12:00:00'), parseServiceTimestamp('2025-06-01 12:00'), parseServiceTimestamp('2025-06-01')]));`;
		const seen = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata'].map((zone) =>
			JSON.parse(execFileSync(process.execPath, ['-e', script], { env: { ...process.env, TZ: zone }, encoding: 'utf8' })) as number[],
		);
		const midnight = Date.parse('2025-06-01T00:00:00Z');
		expect(seen).toEqual([
			[-120, ms, ms, midnight],
			[240, ms, ms, midnight],
			[-330, ms, ms, midnight],
		]);
	});
});
