/**
 * The practical limit: the same signed cursor traversal the node makes (per_page 100 or
 * min(limit, 100), query serialized and signed with the package's own nodes/shared code), as a
 * bare undici loop with a keep-alive connection and nothing else: no engine, no axios, no retries.
 */
import { Client } from 'undici';

import { serializeQuery } from '../nodes/shared/serializeQuery';
import { API_KEY_HEADER, computeSignature, SIGNATURE_HEADER, TIMESTAMP_HEADER, unixTimestamp } from '../nodes/shared/signature';

export interface SignedTarget {
	baseUrl: string;
	apiKey: string;
	apiSecret: string;
}

interface ListBody {
	data: unknown[];
	meta: { has_more: boolean; next_cursor: string | null };
}

const TICKETS_PATH = '/api/v1/external/tickets';

/**
 * Every ticket (or the first `limit`), kept in memory as the node keeps its output. With
 * `newConnections`, every request goes on a fresh TCP connection (`Connection: close`), as n8n's
 * HTTP helper does: it builds a new http.Agent per request, so nothing is reused.
 */
export async function rawTraversal(target: SignedTarget, limit?: number, newConnections = false): Promise<unknown[]> {
	const client = new Client(target.baseUrl, { pipelining: 1 });
	const perPage = limit === undefined ? 100 : Math.min(limit, 100);
	const items: unknown[] = [];
	let cursor: string | undefined;
	try {
		for (;;) {
			const pathWithQuery = `${TICKETS_PATH}?${serializeQuery({ per_page: perPage, cursor })}`;
			const timestamp = unixTimestamp(Date.now());
			const response = await client.request({
				method: 'GET',
				path: pathWithQuery,
				reset: newConnections,
				headers: {
					[API_KEY_HEADER]: target.apiKey,
					[TIMESTAMP_HEADER]: timestamp,
					[SIGNATURE_HEADER]: computeSignature(target.apiSecret, { timestamp, method: 'GET', pathWithQuery, body: '' }),
					accept: 'application/json',
				},
			});
			if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${await response.body.text()}`);
			const page = (await response.body.json()) as ListBody;
			for (const item of page.data) {
				items.push(item);
				if (limit !== undefined && items.length >= limit) return items;
			}
			if (!page.meta.has_more || !page.meta.next_cursor) return items;
			cursor = page.meta.next_cursor;
		}
	} finally {
		await client.close();
	}
}
