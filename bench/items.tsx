/**
 * What a user feels with per-item operations: N creates or N gets against a service that takes its
 * time (fixed latency) or rate-limits, by this node (Concurrent Requests k) and by n8n's own HTTP
 * Request node (n8n-nodes-base, defaults, the Support Ticket credential as a predefined credential
 * type), which is what a user would otherwise wire. Every side runs in a fresh child, all sides of a
 * scenario back to back in every round, order rotated; counts come from the sandbox's request log.
 */
import type { IDataObject, INodeType } from 'n8n-workflow';

import { itemsWorkflow, runWorkflow, type WorkflowJson } from '../test/harness';
import { addNodeTypes } from '../test/harness/packageTypes';
import type { FaultOptions, RequestLogEntry } from '../sandbox';
import { type ChildTask, measureInChild, type ProcessFigures, rotated } from './measure';
import type { SignedTarget } from './sandboxProcess';
import { NODE_TYPE } from './traversal';

export type ItemOperation = 'create' | 'get';
/**
 * `node-<k>`: this node with Concurrent Requests k; `http-request[-retry]`: n8n's node, with
 * Retry On Fail (3 tries, 1 s apart); `http-request-batch-<n>`: n8n's node, Batching n items per
 * batch, 1 ms apart.
 */
export type ItemSide =
	| `node-${number}`
	| 'http-request'
	| 'http-request-retry'
	| `http-request-batch-${number}`;

const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';

function itemWorkflow(
	side: ItemSide,
	operation: ItemOperation,
	items: IDataObject[],
	baseUrl: string,
): WorkflowJson {
	if (side.startsWith('node-')) {
		const parameters: IDataObject =
			operation === 'create'
				? {
						resource: 'ticket',
						operation: 'create',
						subject: '={{ $json.subject }}',
						description: 'bench',
						customerEmail: '={{ $json.email }}',
					}
				: {
						resource: 'ticket',
						operation: 'get',
						ticketId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
					};
		return itemsWorkflow(items, NODE_TYPE, {
			...parameters,
			options: { concurrentRequests: Number(side.slice('node-'.length)) },
		});
	}
	const url = `${baseUrl}/api/v1/external/tickets`;
	const batchSize = Number(side.slice('http-request-batch-'.length));
	const auth = {
		authentication: 'predefinedCredentialType',
		nodeCredentialType: 'supportTicketApi',
		// Batch Interval 0 turns batching off: 1 ms is the shortest pause between batches.
		options: batchSize > 0 ? { batching: { batch: { batchSize, batchInterval: 1 } } } : {},
	};
	const jsonBody =
		'={{ JSON.stringify({ subject: $json.subject, description: "bench", customer: { email: $json.email } }) }}';
	const parameters: IDataObject =
		operation === 'create'
			? { method: 'POST', url, sendBody: true, specifyBody: 'json', jsonBody, ...auth }
			: { method: 'GET', url: `=${url}/{{ $json.id }}`, ...auth };
	// 4.5: the HTTP Request node's default version in n8n 2.41.
	return itemsWorkflow(items, HTTP_REQUEST_TYPE, parameters, {
		typeVersion: 4.5,
		...(side === 'http-request-retry' ? { retryOnFail: true } : {}),
	});
}

/** `tag` starts the subjects of this run's creates, so the sandbox log tells duplicates; `ticketIds` are there to get; `httpRequestNodeFile` is the installed n8n's. */
type ItemsJob = {
	side: ItemSide;
	operation: ItemOperation;
	count: number;
	tag: string;
	ticketIds: string[];
	target: SignedTarget;
	httpRequestNodeFile: string;
};
/** `runError`: the workflow's error, when it failed as a whole (then there is no output). */
type ItemsFigures = { outputItems: number; errorItems: number; runError?: string };

async function runItems(job: ItemsJob, count: number, tag: string): Promise<ItemsFigures> {
	const items = Array.from({ length: count }, (_, i) =>
		job.operation === 'create'
			? { subject: `${tag} #${i}`, email: `bench-${i % 50}@example.com` }
			: { id: job.ticketIds[i % job.ticketIds.length] },
	);
	const result = await runWorkflow(
		itemWorkflow(job.side, job.operation, items, job.target.baseUrl),
		{ supportTicketApi: { ...job.target } },
	);
	if (result.error) return { outputItems: 0, errorItems: 0, runError: result.error.message };
	const output = result.output('Node');
	return {
		outputItems: output.length,
		errorItems: output.filter((item) => item.json.error !== undefined).length,
	};
}

/** Child side: a 20-item run on the idle sandbox to warm up; then the N-item run, timed. */
export function itemsTask(job: ItemsJob): ChildTask<ItemsFigures> {
	return {
		async warmUp() {
			if (job.side.startsWith('http-request')) {
				// eslint-disable-next-line @typescript-eslint/no-require-imports
				const { HttpRequest } = require(job.httpRequestNodeFile) as {
					HttpRequest: new () => INodeType;
				};
				await addNodeTypes({ [HTTP_REQUEST_TYPE]: new HttpRequest() });
			}
			const warm = await runItems(job, 20, `${job.tag}-warm-up`);
			if (warm.runError) throw new Error(`warm-up failed: ${warm.runError}`);
		},
		async run() {
			const figures = await runItems(job, job.count, job.tag);
			return () => figures;
		},
	};
}

export type ItemScenario = {
	title: string;
	operation: ItemOperation;
	count: number;
	faults: FaultOptions;
	sides: ItemSide[];
	rounds: number;
	/** Summary: these node sides' wall time ÷ the fastest HTTP Request side's (first: a target). */
	againstFastestHttpRequest?: ItemSide[];
};
/**
 * From the sandbox log: `succeeded` answered 2xx, `refused` 429; creates: `created` distinct subjects of this run answered 201,
 * `duplicates` created more than once; `lost`: input items without a successful output item (all when the run failed).
 */
export type ItemMeasurement = ProcessFigures &
	ItemsFigures &
	Record<
		'succeeded' | 'refused' | 'duplicates' | 'lost' | 'created' | 'ratePerSecond' | 'round',
		number
	> & { side: ItemSide };
export type ItemComparison = ItemScenario & { measurements: ItemMeasurement[] };

function tally(
	figures: ProcessFigures & ItemsFigures,
	log: RequestLogEntry[],
	count: number,
	side: ItemSide,
	round: number,
	tag: string,
): ItemMeasurement {
	const succeeded = log.filter((e) => e.status >= 200 && e.status < 300).length;
	const perSubject = new Map<string, number>();
	for (const entry of log) {
		const subject = (entry.body as { subject?: unknown } | undefined)?.subject;
		if (
			entry.method === 'POST' &&
			entry.status === 201 &&
			typeof subject === 'string' &&
			subject.startsWith(`${tag} #`)
		)
			perSubject.set(subject, (perSubject.get(subject) ?? 0) + 1);
	}
	const good = figures.runError ? 0 : figures.outputItems - figures.errorItems;
	const refused = log.filter((e) => e.status === 429).length;
	const duplicates = [...perSubject.values()].filter((n) => n > 1).length;
	return {
		...figures,
		side,
		round,
		succeeded,
		refused,
		duplicates,
		lost: Math.max(0, count - good),
		created: perSubject.size,
		ratePerSecond: succeeded / (figures.wallMs / 1000),
	};
}

export async function compareItems(
	scenarios: ItemScenario[],
	target: SignedTarget,
	context: { ticketIds: string[]; httpRequestNodeFile: string },
	log: (line: string) => void,
): Promise<ItemComparison[]> {
	const results: ItemComparison[] = [];
	for (const scenario of scenarios) {
		const comparison: ItemComparison = { ...scenario, measurements: [] };
		for (let round = 1; round <= scenario.rounds; round++) {
			for (const side of rotated(scenario.sides, round)) {
				const tag = `bench-${Date.now().toString(36)}-${side}`;
				const job: ItemsJob = {
					side,
					operation: scenario.operation,
					count: scenario.count,
					tag,
					target,
					...context,
				};
				const { log: requests, ...figures } = await measureInChild<ItemsFigures>('items', job, {
					label: `${scenario.title}, ${side}`,
					faults: scenario.faults,
				});
				const m = tally(figures, requests, scenario.count, side, round, tag);
				comparison.measurements.push(m);
				log(
					`  round ${round}/${scenario.rounds} ${scenario.title.padEnd(36)} ${side.padEnd(18)} ${m.wallMs.toFixed(0).padStart(6)} ms, ` +
						`${m.lost} lost, ${m.duplicates} duplicated, ${m.refused} refused, ${m.ratePerSecond.toFixed(1)} req/s${m.runError ? `, run failed: ${m.runError.slice(0, 80)}` : ''}`,
				);
			}
		}
		results.push(comparison);
	}
	return results;
}

/** Correctness, not speed: this node never duplicates a create, and never loses an item. */
export function itemViolations(c: ItemComparison): string[] {
	return c.measurements
		.filter((m) => m.side.startsWith('node-') && (m.duplicates > 0 || m.lost > 0))
		.map(
			(m) =>
				`${c.count} ${c.operation}s, ${c.title}, round ${m.round}, ${m.side}: ${m.lost} lost, ${m.duplicates} duplicated${m.runError ? ` (${m.runError})` : ''}`,
		);
}
