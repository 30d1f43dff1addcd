import { parseServiceTimestamp } from '../../../../nodes/shared/parameters/serviceTimestamp';

/**
 * Texts a user (Created After) or a service may give that look like Unix time but are calendar
 * dates. Read as seconds they become a moment in 1970, so Created After "2024" silently lists
 * every ticket; such a text must be unreadable (a clear error), not a wrong instant.
 */
describe('parseServiceTimestamp: digit texts that are not Unix time', () => {
	it.each([
		['a year', '2024'],
		['an ISO basic-format date', '20240101'],
	])('%s (%s) is unreadable, not a moment in 1970', (_name, value) => {
		expect(parseServiceTimestamp(value)).toBeUndefined();
	});

	it('Unix seconds as text of every real ticket (from 1973 on) still read', () => {
		expect(parseServiceTimestamp('100000000')).toBe(100_000_000_000);
		expect(parseServiceTimestamp('1700000000')).toBe(1_700_000_000_000);
	});
});

describe('parseServiceTimestamp: impossible calendar days', () => {
	it('30 February is unreadable like month 13, not 1 March', () => {
		expect(parseServiceTimestamp('2024-02-30T10:00:00Z')).toBeUndefined();
	});
});
