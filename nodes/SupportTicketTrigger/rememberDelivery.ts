import type { IDataObject } from 'n8n-workflow';

/** Enough for hours of deliveries at a steady rate; keeps workflow static data small. */
const REMEMBERED_EVENT_IDS = 1000;

/**
 * Records an event id in the trigger's workflow static data and says whether it was new.
 * The list is bounded (oldest ids forgotten first) so static data cannot grow without limit.
 */
export function rememberDelivery(staticData: IDataObject, eventId: string, capacity = REMEMBERED_EVENT_IDS): boolean {
	const seen = Array.isArray(staticData.seenEventIds) ? (staticData.seenEventIds as unknown[]).map(String) : [];
	if (seen.includes(eventId)) return false;
	seen.push(eventId);
	staticData.seenEventIds = seen.length > capacity ? seen.slice(seen.length - capacity) : seen;
	return true;
}
