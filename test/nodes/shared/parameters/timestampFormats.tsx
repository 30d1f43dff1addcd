// Timestamps as a service may send them (JSON values), and the instant each means in epoch ms. The node's reader
// (nodes/shared/parameters/serviceTimestamp.ts) and the examples' reader (test/examples/timestamps.test.tsx) must both
// give exactly this: a row one of them reads differently is a copy that disagrees with the node.

export type JsonValue =
	| string
	| number
	| boolean
	| null
	| JsonValue[]
	| { [key: string]: JsonValue };

/** [what it is, the value as the service sends it, epoch ms or 'unreadable'] */
export type TimestampFormat = readonly [
	name: string,
	value: JsonValue,
	expected: number | 'unreadable',
];

const AT = Date.parse('2026-11-02T10:00:00.000Z');
const FRACTION = '123456789';

export const TIMESTAMP_FORMATS: readonly TimestampFormat[] = [
	['ISO, Z', '2026-11-02T10:00:00.123Z', AT + 123],
	['ISO, lower-case t and z', '2026-11-02t10:00:00.123z', AT + 123],
	['ISO, +hh', '2026-11-02T12:00:00.123+02', AT + 123],
	['ISO, -hh', '2026-11-02T05:00:00.123-05', AT + 123],
	['ISO, +hhmm', '2026-11-02T12:00:00.123+0200', AT + 123],
	['ISO, -hhmm', '2026-11-02T06:30:00.123-0330', AT + 123],
	['ISO, +hh:mm', '2026-11-02T15:30:00.123+05:30', AT + 123],
	['ISO, -00:00', '2026-11-02T10:00:00.123-00:00', AT + 123],
	['ISO, +hh, no seconds', '2026-11-02T12:00+02', AT],
	['ISO, Z, no seconds', '2026-11-02T10:00Z', AT],
	['ISO, space instead of T, +hh', '2026-11-02 12:00:00.123+02', AT + 123],
	['ISO without zone: UTC', '2026-11-02T10:00:00.123', AT + 123],
	['ISO without zone, space instead of T: UTC', '2026-11-02 10:00:00.123', AT + 123],
	['ISO without zone, space, no seconds: UTC', '2026-11-02 10:00', AT],
	// Date.parse keeps whole milliseconds and cuts the rest (.9999999 is .999, not the next second).
	...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((digits): TimestampFormat => {
		const fraction = FRACTION.slice(0, digits);
		return [
			`ISO, ${digits}-digit fraction of a second`,
			`2026-11-02T10:00:00.${fraction}Z`,
			AT + Number(fraction.padEnd(3, '0').slice(0, 3)),
		];
	}),
	['ISO, 9-digit fraction and +hh', '2026-11-02T12:00:00.123456789+02', AT + 123],
	['ISO, a fraction is cut, not rounded', '2026-11-02T10:00:00.9999999Z', AT + 999],
	[
		'ISO, 24:00 is the midnight ending the day',
		'2026-11-01T24:00:00Z',
		Date.parse('2026-11-02T00:00:00Z'),
	],
	['ISO, 29 February of a leap year', '2028-02-29T10:00:00Z', Date.parse('2028-02-29T10:00:00Z')],
	['a date alone: UTC midnight', '2026-11-02', Date.parse('2026-11-02T00:00:00Z')],
	['spaces around', ' 2026-11-02T10:00:00.123Z ', AT + 123],
	['an HTTP date (it names its zone)', 'Mon, 02 Nov 2026 10:00:00 GMT', AT],
	['a text naming UTC', '2026-11-02 10:00:00 UTC', AT],
	['Unix seconds', AT / 1000, AT],
	['Unix seconds with a fraction', AT / 1000 + 0.123, AT + 123],
	['Unix milliseconds', AT + 123, AT + 123],
	['Unix seconds as text', String(AT / 1000), AT],
	['Unix seconds with a fraction as text', `${AT / 1000}.5`, AT + 500],
	['Unix milliseconds as text, spaces around', ` ${AT + 123} `, AT + 123],
	[
		'Unix seconds as text of the earliest real tickets (9 digits, 1973)',
		'100000000',
		100_000_000_000,
	],
	['a number of fewer than 9 digits: seconds all the same', 86_400, 86_400_000],

	['a word', 'yesterday', 'unreadable'],
	['empty', '', 'unreadable'],
	['spaces', '   ', 'unreadable'],
	// Read as seconds these would be a moment in 1970: Created After "2024" would list every ticket.
	['a year', '2024', 'unreadable'],
	['an ISO basic-format date', '20240101', 'unreadable'],
	['8 digits as text', '12345678', 'unreadable'],
	['Unix time with an exponent', '1.7936136e9', 'unreadable'],
	// The host's time zone would decide the instant.
	['a local-time text without zone that is not ISO', 'June 1, 2025 12:00', 'unreadable'],
	['an impossible ISO date', '2026-13-45T12:00:00Z', 'unreadable'],
	['30 February (not 1 March)', '2024-02-30T10:00:00Z', 'unreadable'],
	['29 February of a common year, date alone', '2025-02-29', 'unreadable'],
	['a date alone with a zone', '2026-11-02Z', 'unreadable'],
	['a date alone with +hh', '2026-11-02+02', 'unreadable'],
	['an hour without minutes', '2026-11-02T12', 'unreadable'],
	['a one-digit offset', '2026-11-02T12:00:00+2', 'unreadable'],
	['an offset ending in a colon', '2026-11-02T12:00:00+02:', 'unreadable'],
	['hour 25', '2026-11-02T25:00:00Z', 'unreadable'],
	['an offset of 25 hours', '2026-11-02T12:00:00+25:00', 'unreadable'],
	['the text NaN', 'NaN', 'unreadable'],
	['NaN', Number.NaN, 'unreadable'],
	['Infinity', Number.POSITIVE_INFINITY, 'unreadable'],
	['null', null, 'unreadable'],
	['a boolean', true, 'unreadable'],
	['an object', { at: 1 }, 'unreadable'],
];

/** The rows read as an instant: [what it is, the text or number, epoch ms]. */
export const READABLE_TIMESTAMPS = TIMESTAMP_FORMATS.filter(
	(row): row is readonly [string, string | number, number] =>
		typeof row[2] === 'number' && (typeof row[1] === 'string' || typeof row[1] === 'number'),
);
