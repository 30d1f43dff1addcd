import { execFileSync } from 'node:child_process';

import { parseServiceTimestamp } from '../../../../nodes/shared/parameters/serviceTimestamp';
import { TIMESTAMP_FORMATS } from './timestampFormats';

const ms = Date.parse('2025-06-01T12:00:00.000Z');

describe('parseServiceTimestamp', () => {
	// The table the examples' reader is held to as well (test/examples/timestamps.test.tsx).
	it.each(TIMESTAMP_FORMATS)('%s', (_name, value, expected) => {
		expect(parseServiceTimestamp(value)).toBe(expected === 'unreadable' ? undefined : expected);
	});

	// Values no JSON answer carries, so only the node meets them.
	it.each([
		['a Date', new Date(ms), ms],
		['an invalid date', new Date(Number.NaN), undefined],
	])('%s', (_name, value, expected) => {
		expect(parseServiceTimestamp(value)).toBe(expected);
	});

	it('reads the same instant whatever the machine zone (checked in child processes: TZ cannot change inside jest)', () => {
		const script = `
			const { parseServiceTimestamp } = require(${JSON.stringify(require.resolve('../../../../nodes/shared/parameters/serviceTimestamp'))});
			process.stdout.write(JSON.stringify([new Date(${ms}).getTimezoneOffset(),
				parseServiceTimestamp('2025-06-01T12:00:00'), parseServiceTimestamp('2025-06-01 12:00'), parseServiceTimestamp('2025-06-01')]));`;
		const seen = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata'].map(
			(zone) =>
				JSON.parse(
					execFileSync(process.execPath, ['-e', script], {
						env: { ...process.env, TZ: zone },
						encoding: 'utf8',
					}),
				) as number[],
		);
		const midnight = Date.parse('2025-06-01T00:00:00Z');
		expect(seen).toEqual([
			[-120, ms, ms, midnight],
			[240, ms, ms, midnight],
			[-330, ms, ms, midnight],
		]);
	});
});
