/**
 * Diagnostic middle point between the raw loop and the node: the same traversal through n8n's
 * own HTTP helper (what `this.helpers.httpRequestWithAuthentication` ends in:
 * `Container.get(OutboundHttp).requests().request()`, axios inside), with the request options
 * apiRequest builds and the package's own signRequestOptions, but no engine, no node code.
 * The helper is loaded from where n8n-core loads it, so it is exactly the module n8n-core uses.
 */
import { createRequire } from 'node:module';
import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { signRequestOptions } from '../nodes/shared/signRequestOptions';
import type { SignedTarget } from './rawTraversal';

interface OutboundHttpRequests {
	request(options: IHttpRequestOptions): Promise<IN8nHttpFullResponse>;
}

function n8nHttpRequests(): OutboundHttpRequests {
	const fromN8nCore = createRequire(require.resolve('n8n-core'));
	const { Container } = fromN8nCore('@n8n/di') as { Container: { get(type: unknown): { requests(): OutboundHttpRequests } } };
	const { OutboundHttp } = fromN8nCore('@n8n/backend-network') as { OutboundHttp: unknown };
	return Container.get(OutboundHttp).requests();
}

interface ListBody {
	data: unknown[];
	meta: { has_more: boolean; next_cursor: string | null };
}

export async function n8nHttpTraversal(target: SignedTarget, limit?: number): Promise<unknown[]> {
	const http = n8nHttpRequests();
	const perPage = limit === undefined ? 100 : Math.min(limit, 100);
	const items: unknown[] = [];
	let cursor: string | undefined;
	for (;;) {
		const options: IHttpRequestOptions = {
			method: 'GET',
			baseURL: target.baseUrl,
			url: '/api/v1/external/tickets',
			qs: cursor === undefined ? { per_page: perPage } : { per_page: perPage, cursor },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		};
		const response = await http.request(signRequestOptions(options, target, Date.now()));
		if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${JSON.stringify(response.body)}`);
		const page = response.body as ListBody;
		for (const item of page.data) {
			items.push(item);
			if (limit !== undefined && items.length >= limit) return items;
		}
		if (!page.meta.has_more || !page.meta.next_cursor) return items;
		cursor = page.meta.next_cursor;
	}
}
