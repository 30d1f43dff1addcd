/**
 * One reading of the service's timestamps and of dates compared with them, whatever the host's time
 * zone (formats: docs/operations.md). The API only says "timestamp" (docs/api.md#timestamps).
 */

const ISO_DATE_TIME =
	/^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
// 9 digits or more: shorter ones are calendar dates ("2024", "20240101").
const UNIX_TIME = /^-?\d{9,}(\.\d+)?$/;
// Other texts only when they name their zone (e.g. an HTTP date), or the host's zone would decide.
const NAMES_A_ZONE = /(GMT|UTC|[+-]\d{2}:?\d{2})/i;
// 1e11 s is the year 5138; 1e11 ms is March 1973, before any ticket.
const SECONDS_BELOW = 1e11;

/** Epoch milliseconds, or undefined when the value is no readable timestamp (empty included). */
export function parseServiceTimestamp(value: unknown): number | undefined {
	if (value instanceof Date) return finite(value.getTime());
	if (typeof value === 'number') return fromUnixTime(value);
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (UNIX_TIME.test(text)) return fromUnixTime(Number(text));
	const iso = ISO_DATE_TIME.exec(text);
	if (iso) {
		const [, date, time, zone] = iso;
		if (!isCalendarDate(date)) return undefined;
		if (time === undefined) return zone === undefined ? finite(Date.parse(date)) : undefined;
		// The service's usual form (e.g. 2024-05-01T10:00:00.000Z) as it is:
		// Read From Both Ends reads every item's.
		const usual = text[10] === 'T' && zone === 'Z';
		return finite(Date.parse(usual ? text : `${date}T${time}${normalizeZone(zone)}`));
	}
	return NAMES_A_ZONE.test(text) ? finite(Date.parse(text)) : undefined;
}

const THIRTY_DAY_MONTHS = [4, 6, 9, 11];

/** Date.parse accepts any day up to 31 (30 February becomes 1 March). */
function isCalendarDate(date: string): boolean {
	const year = Number(date.slice(0, 4));
	const month = Number(date.slice(5, 7));
	const day = Number(date.slice(8, 10));
	const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
	const days = month === 2 ? (leap ? 29 : 28) : THIRTY_DAY_MONTHS.includes(month) ? 30 : 31;
	return month >= 1 && month <= 12 && day >= 1 && day <= days;
}

function fromUnixTime(value: number): number | undefined {
	if (!Number.isFinite(value)) return undefined;
	return Math.abs(value) < SECONDS_BELOW ? Math.round(value * 1000) : value;
}

/**
 * No zone means UTC (Date.parse would use the host's); `+0200` and `+02`
 * become `+02:00`, which every Date.parse accepts.
 */
function normalizeZone(zone: string | undefined): string {
	if (zone === undefined || zone.toUpperCase() === 'Z') return 'Z';
	const digits = zone.slice(1).replace(':', '');
	return `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4) || '00'}`;
}

function finite(ms: number): number | undefined {
	return Number.isFinite(ms) ? ms : undefined;
}
