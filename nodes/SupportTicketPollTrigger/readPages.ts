import { NodeApiError, type IDataObject, type IPollFunctions, type JsonObject } from 'n8n-workflow';

import type { RequestTrace } from '../shared/transport/apiRequest';
import {
	isCursorRejected,
	listPages,
	MAX_PER_PAGE,
	type ListPage,
} from '../shared/transport/paginate';
import { parseServiceTimestamp } from '../shared/parameters/serviceTimestamp';
import { toNodeError } from '../shared/transport/toNodeError';
import type { PollSource } from './pollProperties';

export interface ReadOptions {
	/** A cursor saved by an earlier poll; null reads from the top. */
	cursor: string | null;
	perPage?: number;
	trace?: RequestTrace;
}

/**
 * The pages of a poll's list; a refused saved cursor (expired, service restarted)
 * ends it with 'cursorRejected', not an error.
 */
export async function* readPages(
	this: IPollFunctions,
	source: PollSource,
	options: ReadOptions,
): AsyncGenerator<ListPage | 'cursorRejected'> {
	const cursor = options.cursor ?? undefined;
	let pages = 0;
	try {
		for await (const page of listPages.call(this, {
			path: source.path,
			qs: source.qs,
			perPage: options.perPage ?? MAX_PER_PAGE,
			cursor,
			context: { poll: true },
			trace: options.trace,
		})) {
			pages++;
			yield page;
		}
	} catch (error) {
		// Only the saved cursor can be stale; later ones were issued just now.
		if (pages > 0 || cursor === undefined || !isCursorRejected(error))
			throw toNodeError(this.getNode(), error, 0);
		this.logger.warn(
			'Support Ticket Poll Trigger: the service rejected the saved page ' +
				`cursor (expired, or the service restarted). The ${source.noun}s ` +
				'are read again from the newest; none is emitted twice.',
		);
		yield 'cursorRejected';
	}
}

export interface Stamped {
	id: string;
	/** The record's timestampField in epoch ms. */
	atMs: number;
	record: IDataObject;
}

/** The record's id, as text. */
export function recordId(ctx: IPollFunctions, record: IDataObject, source: PollSource): string {
	if (typeof record.id === 'string' || typeof record.id === 'number') return String(record.id);
	throw unusable(ctx, record, source, 'without id');
}

/** The record's id and timestamp, which the feed needs to know what is new. */
export function stamp(ctx: IPollFunctions, record: IDataObject, source: PollSource): Stamped {
	const id = recordId(ctx, record, source);
	const at = record[source.timestampField];
	const atMs =
		typeof at === 'string' || typeof at === 'number' ? parseServiceTimestamp(at) : undefined;
	if (atMs !== undefined) return { id, atMs, record };
	throw unusable(
		ctx,
		record,
		source,
		at === undefined || at === null || at === ''
			? `without ${source.timestampField}`
			: `whose ${source.timestampField} ${JSON.stringify(at)} is not a date and time`,
	);
}

function unusable(
	ctx: IPollFunctions,
	record: IDataObject,
	source: PollSource,
	problem: string,
): NodeApiError {
	return new NodeApiError(ctx.getNode(), record as JsonObject, {
		message: `The service listed a ${source.noun} ${problem}`,
		description:
			`The poll trigger needs each ${source.noun}'s id and ${source.timestampField} ` +
			'to know what is new (formats: docs/poll-trigger.md). Use the Support Ticket ' +
			'Trigger (webhooks) if the service does not send them.',
	});
}

/**
 * The feed stops at the first older record, so a list not newest first
 * (across pages and polls too) fails the poll.
 */
export function checkOrder(
	ctx: IPollFunctions,
	source: PollSource,
	item: Stamped,
	before: { id: string; atMs: number } | undefined,
): void {
	if (!before || item.atMs <= before.atMs) return;
	const field = source.timestampField;
	const alternative =
		field === 'updated_at'
			? 'Use the Support Ticket Trigger (webhooks) for changes, or the event New Ticket.'
			: 'Use the Support Ticket Trigger (webhooks) instead.';
	throw new NodeApiError(ctx.getNode(), {} as JsonObject, {
		message: `The service does not sort ${source.noun}s by ${field}: the list is out of order`,
		description:
			`It listed ${source.noun} ${item.id} (${new Date(item.atMs).toISOString()}) ` +
			`after ${before.id} (${new Date(before.atMs).toISOString()}), and nothing ` +
			`was emitted, since reading on could miss ${source.noun}s. ${alternative}`,
	});
}
