import type { IDataObject } from 'n8n-workflow';

export const ANY_EVENT = '*';

/** Common event names, offered in the list; the service may send others. */
export const KNOWN_EVENTS = [
	{
		name: 'Any Event',
		value: ANY_EVENT,
		description: 'Every delivery, including event names not listed here',
	},
	{ name: 'Customer Created', value: 'customer.created' },
	{ name: 'Customer Updated', value: 'customer.updated' },
	{ name: 'Reply Created', value: 'reply.created' },
	{ name: 'Ticket Created', value: 'ticket.created' },
	{ name: 'Ticket Updated', value: 'ticket.updated' },
];

/** Reads a dot path such as `event` or `meta.type`; undefined unless it leads to a string. */
export function readEventName(payload: unknown, fieldPath: string): string | undefined {
	let current: unknown = payload;
	for (const key of fieldPath.split('.').filter((part) => part !== '')) {
		if (!current || typeof current !== 'object' || Array.isArray(current)) return undefined;
		current = (current as IDataObject)[key];
	}
	return typeof current === 'string' ? current : undefined;
}

/** Comma- or newline-separated names, trimmed, empty ones dropped. */
export function parseEventList(text: string | undefined): string[] {
	return (text ?? '')
		.split(/[,\n]/)
		.map((name) => name.trim())
		.filter((name) => name !== '');
}

/** Names match exactly; a selected name ending in `.*` (e.g. `ticket.*`) matches that prefix. */
export function isSelectedEvent(event: string | undefined, selected: string[]): boolean {
	if (selected.includes(ANY_EVENT)) return true;
	if (event === undefined) return false;
	return selected.some((name) =>
		name.endsWith('.*') ? event.startsWith(name.slice(0, -1)) : name === event,
	);
}
