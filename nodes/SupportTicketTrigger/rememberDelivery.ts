import type { IDataObject } from 'n8n-workflow';

/** Enough for hours of deliveries at a steady rate; keeps workflow static data small. */
const REMEMBERED_DELIVERIES = 1000;

/**
 * Whether the identity is new; notes it, forgetting the oldest beyond `capacity`. Simultaneous
 * deliveries each read their own copy, so a race only lets a repeat through, never drops an event.
 */
export function rememberDelivery(
	staticData: IDataObject,
	identity: string,
	capacity = REMEMBERED_DELIVERIES,
): boolean {
	// Named before it held more than ids; saved workflows have it.
	const seen = Array.isArray(staticData.seenEventIds)
		? (staticData.seenEventIds as unknown[]).map(String)
		: [];
	if (seen.includes(identity)) return false;
	seen.push(identity);
	staticData.seenEventIds = seen.length > capacity ? seen.slice(seen.length - capacity) : seen;
	return true;
}
