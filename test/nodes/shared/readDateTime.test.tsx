import { execFileSync } from 'node:child_process';

import type { IExecuteFunctions } from 'n8n-workflow';

import { readDateTime } from '../../../nodes/shared/readParameters';

const ctx = { getNode: () => ({ name: 'Node', type: 'test', typeVersion: 1, position: [0, 0], parameters: {} }) } as unknown as IExecuteFunctions;
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
		expect(() => read('last tuesday')).toThrow('Created After "last tuesday" is not a date and time');
		expect(read(1748779200)).toBe(ms); // epoch seconds
		expect(read(ms)).toBe(ms); // epoch milliseconds
		expect(() => read(true)).toThrow('Created After boolean is not a date and time');
	});

	it("reads a time without zone as UTC in any machine zone (checked in a process running in Tokyo's zone)", () => {
		const script = `
			const { readDateTime } = require(${JSON.stringify(require.resolve('../../../nodes/shared/readParameters'))});
			const ctx = { getNode: () => ({}) };
			process.stdout.write(JSON.stringify([new Date(2025, 0, 1).getTimezoneOffset(),
				readDateTime(ctx, '2025-06-01T12:00:00', 'x', 0), readDateTime(ctx, '2025-06-01 12:00', 'x', 0)]));`;
		const out = execFileSync(process.execPath, ['-e', script], { env: { ...process.env, TZ: 'Asia/Tokyo' }, encoding: 'utf8' });
		const ms = Date.parse('2025-06-01T12:00:00Z');
		expect(JSON.parse(out)).toEqual([-540, ms, ms]);
	});
});
