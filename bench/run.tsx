/**
 * `npm run bench`: what a user waits for, side by side, each figure a ratio. Per-item creates and
 * gets at 30 ms service latency and under a 20 requests/s rate limit (this node one at a time,
 * concurrently, and n8n's HTTP Request node); Return All at 0 and 5 ms latency against n8n's HTTP
 * helper alone and raw undici; Limit 250, scaling, a profile and the signing micro-benchmark.
 * Writes bench/results.md.
 *
 *   node build/bench/run.js [--rounds 5] [--item-rounds 2] [--items 1000] [--out bench/results.md]
 *
 * Exits 1 when a traversal returned the wrong items or made the wrong number of calls (a
 * correctness failure); missed speed targets are reported in results.md, not as a failure.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { repoPath } from '../test/harness/repoPath';
import { compareItems, itemViolations, type ItemScenario } from './compareItems';
import { type Comparison, type ComparisonSpec, compareInterleaved, violations } from './compareSides';
import { loadAverage, machineFacts } from './machineFacts';
import type { Side } from './measureTraversal';
import { profileRun } from './profileRun';
import { type BenchResults, renderResults } from './report';
import { startSandboxProcess } from './sandboxProcess';
import { measureSigningCosts } from './signingCost';
import { measureRealN8nReturnAll, type RealN8nFigures } from './realN8nReturnAll';
import { ensureN8n, PRIMARY_N8N_VERSION } from '../test/e2e/n8n/n8nInstall';
import { DEFAULT_CONCURRENT_REQUESTS } from '../nodes/SupportTicket/actions/common.descriptions';
import type { ItemSide } from './itemWorkflows';

function option(name: string, fallback: string): string {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

const LARGE = Number(option('large', '100000'));
const SCALING_SIZES = [1_000, 10_000];
/** The last scaling sandbox, reused for the real-n8n Return All. */
const REAL_N8N_TICKETS = SCALING_SIZES[SCALING_SIZES.length - 1];
const LIMIT = 250;
const MAIN_SIDES: Side[] = ['raw', 'node', 'raw-new-connection', 'n8n-http'];
/** Service latency of the "slow service" Return All, and of the per-item scenarios. */
const RETURN_ALL_LATENCY_MS = 5;
const ITEM_LATENCY_MS = 30;
const RATE_LIMIT_PER_SECOND = 20;
const CONCURRENT: ItemSide = `node-${DEFAULT_CONCURRENT_REQUESTS}`;

function itemScenarios(count: number, rounds: number): ItemScenario[] {
	const latency = { latencyMs: ITEM_LATENCY_MS };
	const limited = { latencyMs: ITEM_LATENCY_MS, rateLimit: { perSecond: RATE_LIMIT_PER_SECOND } };
	const fast: ItemSide[] = ['node-1', CONCURRENT, 'http-request'];
	return [
		{ title: `${ITEM_LATENCY_MS} ms latency`, operation: 'create', count, faults: latency, sides: fast, rounds },
		{ title: `${ITEM_LATENCY_MS} ms latency`, operation: 'get', count, faults: latency, sides: fast, rounds },
		{ title: `${RATE_LIMIT_PER_SECOND} requests/s rate limit`, operation: 'create', count, faults: limited, sides: [CONCURRENT, 'http-request', 'http-request-retry'], rounds: 1 },
		{ title: `${RATE_LIMIT_PER_SECOND} requests/s rate limit`, operation: 'get', count, faults: limited, sides: [CONCURRENT, 'http-request', 'http-request-retry'], rounds: 1 },
	];
}


const log = (line: string): void => console.log(line);

function returnAll(tickets: number): ComparisonSpec {
	return { title: `Return All ${tickets.toLocaleString('en')}`, tickets, expectedItems: tickets, expectedCalls: Math.ceil(tickets / 100) };
}

async function main(): Promise<void> {
	const rounds = Number(option('rounds', '5'));
	const itemRounds = Number(option('item-rounds', '2'));
	const itemCount = Number(option('items', '1000'));
	const out = option('out', repoPath('bench', 'results.md'));
	const startedAt = new Date();
	const loadBefore = loadAverage();
	log(`bench: ${rounds} rounds, load average ${loadBefore}`);

	// n8n's HTTP Request node comes from the installed n8n (the e2e's cache; installed if absent).
	const n8n = await ensureN8n(PRIMARY_N8N_VERSION, log);
	const httpRequestNodeFile = `${n8n.dir}/node_modules/n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js`;

	// One sandbox process per size, all up for the whole run, so every round covers every size; one
	// more 100k with latency, and one for the per-item runs (their creates must not change the lists).
	const sizes = [LARGE, LARGE, itemCount, ...SCALING_SIZES];
	log(`sandboxes: seeding ${sizes.map((n) => n.toLocaleString('en')).join(', ')} tickets`);
	const started = await Promise.allSettled(sizes.map((seed) => startSandboxProcess({ seed })));
	const sandboxes = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
	const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
	if (failed) {
		await Promise.all(sandboxes.map((sandbox) => sandbox.stop()));
		throw failed.reason;
	}
	let comparisons: Comparison[];
	let items: Awaited<ReturnType<typeof compareItems>>;
	let realN8n: RealN8nFigures;
	try {
		const [large, slow, itemSandbox, ...small] = sandboxes;
		await slow.setFaults({ latencyMs: RETURN_ALL_LATENCY_MS });
		log(`per-item scenarios: ${itemCount} items, ${itemRounds} round(s) at ${ITEM_LATENCY_MS} ms latency, 1 under the rate limit`);
		const ticketIds = Array.from({ length: itemCount }, (_, i) => `tkt_${i + 1}`);
		items = await compareItems(itemScenarios(itemCount, itemRounds), itemSandbox, { ticketIds, httpRequestNodeFile }, log);
		comparisons = await compareInterleaved(
			[
				{ spec: returnAll(LARGE), sandbox: large, sides: MAIN_SIDES },
				{ spec: { ...returnAll(LARGE), title: `Return All ${LARGE.toLocaleString('en')} at ${RETURN_ALL_LATENCY_MS} ms` }, sandbox: slow, sides: ['raw', 'node', 'n8n-http'] },
				{ spec: { title: `Limit ${LIMIT}`, tickets: LARGE, limit: LIMIT, expectedItems: LIMIT, expectedCalls: Math.ceil(LIMIT / 100) }, sandbox: large, sides: ['raw', 'node'] },
				...small.map((sandbox, i) => ({ spec: returnAll(SCALING_SIZES[i]), sandbox, sides: ['raw', 'node'] as Side[] })),
			],
			rounds,
			log,
		);
		log(`real n8n ${n8n.version}: Return All ${REAL_N8N_TICKETS.toLocaleString('en')} through n8n execute`);
		realN8n = await measureRealN8nReturnAll(n8n, small[small.length - 1], REAL_N8N_TICKETS);
	} finally {
		await Promise.all(sandboxes.map((sandbox) => sandbox.stop()));
	}
	const [main, slowMain, limit, ...smaller] = comparisons;
	const scaling = [...smaller, main];

	log('profile: one profiled Return All per side, sandbox profiled too');
	const profile = await profileRun(LARGE, ['node', 'raw']);
	log('signing micro-benchmark');
	const { results: signing } = await measureSigningCosts();

	const analysisFile = repoPath('bench', 'analysis.md');
	const results: BenchResults = {
		startedAt,
		durationSeconds: (Date.now() - startedAt.getTime()) / 1000,
		command: `npm run bench${process.argv.slice(2).length > 0 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
		facts: machineFacts(),
		loadBefore,
		loadAfter: loadAverage(),
		rounds,
		main,
		slowMain,
		items,
		concurrent: CONCURRENT,
		realN8n,
		ratePerSecond: RATE_LIMIT_PER_SECOND,
		limit,
		scaling,
		profile,
		signing,
		violations: [...comparisons.flatMap(violations), ...items.flatMap(itemViolations)],
		analysis: existsSync(analysisFile) ? readFileSync(analysisFile, 'utf8') : '',
	};
	writeFileSync(out, renderResults(results));
	log(`wrote ${out}`);
	if (results.violations.length > 0) {
		for (const violation of results.violations) console.error(`VIOLATION: ${violation}`);
		process.exitCode = 1;
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
