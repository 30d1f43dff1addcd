import type { IExecuteFunctions } from 'n8n-workflow';

import { invalid } from './invalid';
import { parseServiceTimestamp } from './serviceTimestamp';

/**
 * Epoch ms, read like the service's timestamps; an ISO text without a zone is read
 * in `zone` (a date picked in the field, as n8n nodes do), else as UTC so a
 * created_at fed back means the service's instant.
 */
export function readDateTime(
	ctx: IExecuteFunctions,
	value: unknown,
	label: string,
	itemIndex: number,
	zone?: string,
): number | undefined {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
		return undefined;
	const luxon =
		typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function';
	let ms = parseServiceTimestamp(luxon ? (value as { toISO: () => unknown }).toISO() : value);
	if (ms === undefined) {
		const shown = typeof value === 'string' ? `"${value}"` : typeof value;
		throw invalid(
			ctx,
			itemIndex,
			`${label} ${shown} is not a date and time`,
			'Use an ISO 8601 date and time such as 2025-06-01T12:00:00Z (without ' +
				`a zone: ${zone ? `the workflow's time zone, ${zone}` : 'UTC'}), or ` +
				'Unix time in seconds or milliseconds.',
		);
	}
	if (zone !== undefined && typeof value === 'string' && ZONELESS_ISO.test(value.trim())) {
		try {
			ms = wallClockToInstant(ms, zone);
		} catch {
			throw invalid(
				ctx,
				itemIndex,
				`The workflow's time zone "${zone}" is unknown`,
				"Choose a time zone in the workflow's settings, or " +
					`give ${label} with a zone, e.g. 2025-06-01T12:00:00Z.`,
			);
		}
	}
	return ms;
}

/** ISO 8601 dates and date-times without a zone, as the date picker stores them. */
const ZONELESS_ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/i;

const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `zone` at `instant`, as epoch milliseconds of that clock reading in UTC. */
function wallClockAt(instant: number, zone: string): number {
	let format = wallClockFormats.get(zone);
	if (!format) {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
		wallClockFormats.set(zone, format);
	}
	const part: Record<string, number> = {};
	for (const { type, value } of format.formatToParts(new Date(instant))) part[type] = Number(value);
	const millis = ((instant % 1000) + 1000) % 1000;
	return (
		Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second) + millis
	);
}

/**
 * The instant the clock in `zone` shows `wallClock`. A repeated time is its
 * first occurrence (unlike Luxon: the first loses no ticket in between); a
 * skipped one moves forward by the gap, as Luxon does.
 */
function wallClockToInstant(wallClock: number, zone: string): number {
	const day = 86_400_000;
	const offsetBefore = wallClockAt(wallClock - day, zone) - (wallClock - day);
	const offsetAfter = wallClockAt(wallClock + day, zone) - (wallClock + day);
	const shows = [wallClock - offsetBefore, wallClock - offsetAfter].filter(
		(instant) => wallClockAt(instant, zone) === wallClock,
	);
	return shows.length > 0 ? Math.min(...shows) : wallClock - offsetBefore;
}
