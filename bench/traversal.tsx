/**
 * Return All (or a Limit) side by side: `node` against `n8n-http` (n8n's HTTP helper and the
 * package's signing, without the engine: the limit reachable inside n8n) and `raw` (a bare undici
 * loop, for reference). Each side loads only what it needs (imported on first use), so a child's
 * peak RSS is its side's. Every round runs each side of every comparison once, each in a fresh child,
 * all comparisons interleaved round by round, the side order rotated from round to round.
 */
import { createRequire } from 'node:module';
import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { Client } from 'undici';

import { serializeQuery } from '../nodes/shared/signing/serializeQuery';
import {
	API_KEY_HEADER,
	computeSignature,
	SIGNATURE_HEADER,
	TIMESTAMP_HEADER,
	unixTimestamp,
} from '../nodes/shared/signing/signature';
import {
	type ChildTask,
	fullGc,
	listCalls,
	measureInChild,
	type ProcessFigures,
	rotated,
} from './measure';
import type { SandboxProcess, SignedTarget } from './sandboxProcess';

export type Side = 'node' | 'node-both-ends' | 'raw' | 'n8n-http';
export const NODE_TYPE = 'n8n-nodes-support-ticket.supportTicket';
const TICKETS_PATH = '/api/v1/external/tickets';

export function getManyParameters(limit?: number, options: IDataObject = {}): IDataObject {
	return limit === undefined
		? { resource: 'ticket', operation: 'getAll', returnAll: true, options }
		: { resource: 'ticket', operation: 'getAll', returnAll: false, limit, options };
}

type ListBody = { data: unknown[]; meta: { has_more: boolean; next_cursor: string | null } };

/** The node's cursor loop (per_page 100 or min(limit, 100)), every item kept in memory as the node keeps its output. */
async function pages(
	limit: number | undefined,
	page: (perPage: number, cursor: string | undefined) => Promise<ListBody>,
): Promise<unknown[]> {
	const items: unknown[] = [];
	let cursor: string | undefined;
	for (;;) {
		const { data, meta } = await page(limit === undefined ? 100 : Math.min(limit, 100), cursor);
		for (const item of data) {
			items.push(item);
			if (limit !== undefined && items.length >= limit) return items;
		}
		if (!meta.has_more || !meta.next_cursor) return items;
		cursor = meta.next_cursor;
	}
}

/** The practical limit: a bare undici loop on one keep-alive connection, signed with nodes/shared. */
async function rawTraversal(target: SignedTarget, limit: number | undefined): Promise<unknown[]> {
	const client = new Client(target.baseUrl, { pipelining: 1 });
	try {
		return await pages(limit, async (perPage, cursor) => {
			const pathWithQuery = `${TICKETS_PATH}?${serializeQuery({ per_page: perPage, cursor })}`;
			const timestamp = unixTimestamp(Date.now());
			const signature = computeSignature(target.apiSecret, {
				timestamp,
				method: 'GET',
				pathWithQuery,
				body: '',
			});
			const headers = {
				[API_KEY_HEADER]: target.apiKey,
				[TIMESTAMP_HEADER]: timestamp,
				[SIGNATURE_HEADER]: signature,
				accept: 'application/json',
			};
			const response = await client.request({ method: 'GET', path: pathWithQuery, headers });
			if (response.statusCode !== 200)
				throw new Error(`HTTP ${response.statusCode}: ${await response.body.text()}`);
			return (await response.body.json()) as ListBody;
		});
	} finally {
		await client.close();
	}
}

/** n8n's own HTTP helper (what httpRequestWithAuthentication ends in), loaded from where n8n-core loads it, with the package's signing. */
async function n8nHttpTraversal(
	target: SignedTarget,
	limit: number | undefined,
): Promise<unknown[]> {
	const { signRequestOptions } = await import('../nodes/shared/signing/signRequestOptions');
	const fromN8nCore = createRequire(require.resolve('n8n-core'));
	const { Container } = fromN8nCore('@n8n/di') as {
		Container: {
			get(type: unknown): {
				requests(): { request(options: IHttpRequestOptions): Promise<IN8nHttpFullResponse> };
			};
		};
	};
	const http = Container.get(
		(fromN8nCore('@n8n/backend-network') as { OutboundHttp: unknown }).OutboundHttp,
	).requests();
	return pages(limit, async (perPage, cursor) => {
		const qs = cursor === undefined ? { per_page: perPage } : { per_page: perPage, cursor };
		const options: IHttpRequestOptions = {
			method: 'GET',
			baseURL: target.baseUrl,
			url: TICKETS_PATH,
			qs,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		};
		const response = await http.request(signRequestOptions(options, target, Date.now()));
		if (response.statusCode !== 200)
			throw new Error(`HTTP ${response.statusCode}: ${JSON.stringify(response.body)}`);
		return response.body as ListBody;
	});
}

/** The node side: a Support Ticket "Get Many" workflow through n8n-core's WorkflowExecute, the package loaded from dist/. */
export async function engineTraversal(
	target: SignedTarget,
	limit?: number,
	options: IDataObject = {},
): Promise<unknown[]> {
	const { runWorkflow, singleNodeWorkflow } = await import('../test/harness');
	const parameters = getManyParameters(limit, options);
	const result = await runWorkflow(singleNodeWorkflow(NODE_TYPE, parameters), {
		supportTicketApi: { ...target },
	});
	if (result.error) throw result.error;
	return result.output('Node');
}

function traverse(side: Side, target: SignedTarget, limit: number | undefined): Promise<unknown[]> {
	const bothEnds = (t: SignedTarget, l?: number) =>
		engineTraversal(t, l, { readFromBothEnds: true });
	const sides = {
		node: engineTraversal,
		'node-both-ends': bothEnds,
		'n8n-http': n8nHttpTraversal,
		raw: rawTraversal,
	};
	return sides[side](target, limit);
}

/** `limit` undefined: Return All. */
export type TraversalJob = { side: Side; target: SignedTarget; limit?: number };

/** Child side: 20 Limit 250 traversals to warm up (enough for the JIT, too few items to move the peak RSS), then one timed. */
/** What a traversal child reports besides its process figures; warnings for node sides only. */
type TraversalFigures = { side: Side; items: number; warnings?: number };

export function traversalTask(job: TraversalJob): ChildTask<TraversalFigures> {
	return {
		async warmUp() {
			for (let run = 0; run < 20; run++) {
				await traverse(job.side, job.target, 250);
				fullGc(); // the warm-up's garbage must not set the peak RSS
			}
		},
		async run() {
			const node = job.side === 'node' || job.side === 'node-both-ends';
			const warnings = node ? await countWarnings() : undefined;
			const items = await traverse(job.side, job.target, job.limit);
			return () => ({ side: job.side, items: items.length, warnings: warnings?.() });
		},
	};
}

/** Counts the warnings n8n's log gets from now on (Read From Both Ends says why it read one end). */
async function countWarnings(): Promise<() => number> {
	const { Logger } = await import('@n8n/backend-common');
	const { Container } = await import('@n8n/di');
	const logger = Container.get(Logger);
	const warn = logger.warn.bind(logger);
	let count = 0;
	logger.warn = (...args: Parameters<typeof warn>) => {
		count++;
		warn(...args);
	};
	return () => count;
}

/** From the sandbox log: `calls` = GET /tickets answered 200, `requests` = every API request (a retry would show), `sandboxMs` = its own time per request, summed. */
export type Measurement = ProcessFigures & {
	side: Side;
	round: number;
	items: number;
	/** Node sides: warnings in n8n's log during the timed traversal. */
	warnings?: number;
	calls: number;
	requests: number;
	sandboxMs: number;
};

/** Parent side: one traversal in a fresh child, its calls counted from the sandbox's log. */
async function measureTraversal(job: TraversalJob, round: number): Promise<Measurement> {
	const { log, ...figures } = await measureInChild<TraversalFigures>('traversal', job, {
		label: `measurement of the ${job.side} side`,
		timeoutMs: 300_000,
	});
	return {
		...figures,
		round,
		calls: listCalls(log),
		requests: log.length,
		sandboxMs: log.reduce((sum, entry) => sum + entry.durationMs, 0),
	};
}

export type ComparisonSpec = {
	title: string;
	tickets: number;
	limit?: number;
	expectedItems: number;
	expectedCalls: number;
	/** Under a rate limit: refused requests (429) are expected on top of the calls. */
	rateLimited?: boolean;
};
export type Comparison = ComparisonSpec & { measurements: Measurement[] };

export async function compareInterleaved(
	plans: Array<{ spec: ComparisonSpec; sandbox: SandboxProcess; sides: Side[] }>,
	rounds: number,
	log: (line: string) => void,
): Promise<Comparison[]> {
	const comparisons: Comparison[] = plans.map((plan) => ({ ...plan.spec, measurements: [] }));
	for (let round = 1; round <= rounds; round++) {
		for (const [index, { spec, sandbox, sides }] of plans.entries()) {
			for (const side of rotated(sides, round)) {
				const m = await measureTraversal(
					{ side, target: sandbox.target, limit: spec.limit },
					round,
				);
				comparisons[index].measurements.push(m);
				log(
					`  round ${round}/${rounds} ${spec.title.padEnd(18)} ${side.padEnd(18)} ${m.wallMs.toFixed(0).padStart(6)} ms wall, ${m.cpuMs.toFixed(0).padStart(6)} ms CPU, peak RSS ${(m.maxRssBytes / 2 ** 20).toFixed(0)} MiB, ${m.calls} calls`,
				);
			}
		}
	}
	return comparisons;
}

/** Every measurement returned the expected items in the expected number of successful calls. */
export function violations(c: Comparison): string[] {
	// From both ends: at most two calls more than one chain, where the ends meet.
	const callsFit = (m: Measurement, calls: number) =>
		m.side === 'node-both-ends'
			? calls >= c.expectedCalls && calls <= c.expectedCalls + 2
			: calls === c.expectedCalls;
	return c.measurements
		.filter(
			(m) =>
				m.items !== c.expectedItems ||
				!callsFit(m, m.calls) ||
				(!c.rateLimited && !callsFit(m, m.requests)),
		)
		.map(
			(m) =>
				`${c.title}, round ${m.round}, ${m.side}: ${m.items} items in ${m.calls} calls (${m.requests} requests); expected ${c.expectedItems} in ${c.expectedCalls}`,
		);
}
