/**
 * `npm run bench`: what a user waits for, side by side, each figure a ratio; writes bench/results.md.
 *
 *   node build/bench/run.js [--rounds 5] [--item-rounds 3] [--items 1000] [--large 100000] [--out bench/results.md]
 *   node build/bench/run.js --widest-only [--item-rounds 3] [--items 1000] [--out FILE]
 *   node build/bench/run.js --return-all-only [--rounds 5] [--large 100000] [--latencies 0,5]
 *
 * `--widest-only`: only the creates at the highest Concurrent Requests against the HTTP Request
 * node (≈ 1 min); prints its Summary rows and table; writes a report only to `--out`.
 * `--return-all-only`: only Return All, one chain and from both ends, beside n8n's HTTP helper at
 * each latency; prints the medians.
 * A first argument picks another measurement, which takes the other arguments: `--memory`
 * (pageMemory.tsx), `--data-tables` (dataTableSize.tsx), `--large-import` (largeImport.tsx), `--soak`
 * (soak.tsx).
 *
 * results.md is rewritten as each section ends, so a failed section (reported with why) leaves the
 * others' figures standing. Exits 1 on a failed section or a correctness failure (wrong items or
 * calls, an item lost or duplicated by this node); missed speed targets are reported, not failed.
 */
import { writeFileSync } from 'node:fs';

import {
	DEFAULT_CONCURRENT_REQUESTS,
	MAX_CONCURRENT_REQUESTS,
} from '../nodes/SupportTicket/actions/common/descriptions';
import { ensureQueueServices, runVariant } from '../test/harness/variants';
import { ensureN8n, type N8nInstall, PRIMARY_N8N_VERSION } from '../test/e2e/n8n/n8nInstall';
import { isolateUserFolder, repoPath } from '../test/harness';
import { benchCreateRecovery, createRecoveryViolations } from './createRecovery';
import { compareItems, type ItemScenario, type ItemSide, itemViolations } from './items';
import { measureRealN8nReturnAll } from './realN8n';
import {
	BENCH_SECTIONS,
	type BenchResults,
	type BenchSection,
	checkOptions,
	itemsTables,
	median,
	option,
	renderResults,
	startRun,
	summaryTable,
} from './report';
import { type SandboxProcess, startSandboxProcess } from './sandboxProcess';
import { measureSigningCosts } from './signingCost';
import {
	type Comparison,
	type ComparisonSpec,
	compareInterleaved,
	type Side,
	violations,
} from './traversal';

const SCALING_SIZES = [1_000, 10_000];
const LIMIT = 250;
/** Service latency of the "slow service" Return All, and of the per-item scenarios. */
const RETURN_ALL_LATENCY_MS = 5;
const ITEM_LATENCY_MS = 30;
const RATE_LIMIT_PER_SECOND = 20;
/**
 * Return All from both ends under a rate limit (nothing lost, near the limit), and on a service
 * that ignores sort=asc (one chain, exact, one log line).
 */
const SMALL_LIST = 10_000;
const RATE_LIMITED_TITLE = `Return All ${SMALL_LIST.toLocaleString('en')} at ${RATE_LIMIT_PER_SECOND} requests/s`;
const IGNORED_SORT_TITLE = `Return All ${SMALL_LIST.toLocaleString('en')}, sort=asc ignored`;
const CONCURRENT: ItemSide = `node-${DEFAULT_CONCURRENT_REQUESTS}`;
const WIDEST: ItemSide = `node-${MAX_CONCURRENT_REQUESTS}`;
/** The HTTP Request node's batchings beside the widest node side: none (its defaults) and one. */
const HTTP_REQUEST_BATCHINGS: ItemSide[] = ['http-request', 'http-request-batch-100'];
const log = (line: string): void => console.log(line);

/** Creates at the highest and the default Concurrent Requests ÷ the HTTP Request node's best. */
const widestCreates = (count: number, rounds: number): ItemScenario => ({
	title: `${ITEM_LATENCY_MS} ms latency, ${WIDEST} and ${CONCURRENT}`,
	operation: 'create',
	count,
	faults: { latencyMs: ITEM_LATENCY_MS },
	sides: [WIDEST, CONCURRENT, ...HTTP_REQUEST_BATCHINGS],
	rounds,
	againstFastestHttpRequest: [WIDEST, CONCURRENT],
});

const httpRequestNodeFile = (install: N8nInstall): string =>
	`${install.dir}/node_modules/n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js`;

function itemScenarios(count: number, rounds: number): ItemScenario[] {
	const latency = {
		title: `${ITEM_LATENCY_MS} ms latency`,
		count,
		faults: { latencyMs: ITEM_LATENCY_MS },
		sides: ['node-1', CONCURRENT, 'http-request'] as ItemSide[],
		rounds,
	};
	const limited = {
		title: `${RATE_LIMIT_PER_SECOND} requests/s rate limit`,
		count,
		faults: { latencyMs: ITEM_LATENCY_MS, rateLimit: { perSecond: RATE_LIMIT_PER_SECOND } },
		sides: [CONCURRENT, 'node-1', 'http-request', 'http-request-retry'] as ItemSide[],
		rounds: 1,
	};
	return [
		{ ...latency, operation: 'create' },
		{ ...latency, operation: 'get' },
		widestCreates(count, rounds),
		{ ...limited, operation: 'create' },
		{ ...limited, operation: 'get' },
	];
}

const returnAll = (
	tickets: number,
	title = `Return All ${tickets.toLocaleString('en')}`,
): ComparisonSpec => ({
	title,
	tickets,
	expectedItems: tickets,
	expectedCalls: Math.ceil(tickets / 100),
});

/** `--widest-only`: that scenario alone; Summary rows and table on stdout; a report to `--out`. */
async function widestOnly(itemCount: number, itemRounds: number): Promise<void> {
	const run = startRun();
	const [install, sandbox] = await Promise.all([
		ensureN8n(PRIMARY_N8N_VERSION, log),
		startSandboxProcess(itemCount),
	]);
	try {
		const items = await compareItems(
			[widestCreates(itemCount, itemRounds)],
			sandbox.target,
			{ ticketIds: [], httpRequestNodeFile: httpRequestNodeFile(install) },
			log,
		);
		const results: BenchResults = {
			run: run.finish(),
			rounds: 0,
			concurrent: CONCURRENT,
			ratePerSecond: RATE_LIMIT_PER_SECOND,
			items,
			violations: items.flatMap(itemViolations),
			failures: [],
			pending: BENCH_SECTIONS.filter((name) => name !== 'Per-item operations'),
		};
		const out = option('out', '');
		if (out) writeFileSync(out, renderResults(results));
		log(`${summaryTable({ ...results, pending: [] })}\n\n${items.map(itemsTables).join('\n\n')}`);
		for (const violation of results.violations) console.error(`VIOLATION: ${violation}`);
		if (results.violations.length > 0) process.exitCode = 1;
	} finally {
		await sandbox.stop();
	}
}

/** `--return-all-only`: Return All of `--large` at each `--latencies` (ms), one chain and from both ends beside n8n's HTTP helper. */
async function returnAllOnly(large: number, rounds: number): Promise<void> {
	const latencies = option('latencies', `0,${RETURN_ALL_LATENCY_MS}`).split(',').map(Number);
	const sandboxes = await Promise.all(latencies.map(() => startSandboxProcess(large)));
	try {
		const sides: Side[] = ['n8n-http', 'node', 'node-both-ends'];
		const plans = await Promise.all(
			latencies.map(async (latencyMs, i) => {
				await sandboxes[i].setFaults(latencyMs > 0 ? { latencyMs } : {});
				const title = `Return All ${large.toLocaleString('en')} at ${latencyMs} ms`;
				return { spec: returnAll(large, title), sandbox: sandboxes[i], sides };
			}),
		);
		const comparisons = await compareInterleaved(plans, rounds, log);
		for (const c of comparisons) {
			const wallOf = (side: Side) =>
				median(c.measurements.filter((m) => m.side === side).map((m) => m.wallMs));
			const [http, node, bothEnds] = sides.map(wallOf);
			log(
				`${c.title}: n8n's HTTP helper ${Math.round(http)} ms; node ${Math.round(node)} ms ` +
					`(${(node / http).toFixed(2)}×); from both ends ${Math.round(bothEnds)} ms (${(bothEnds / http).toFixed(2)}×)`,
			);
		}
		const problems = comparisons.flatMap(violations);
		for (const problem of problems) console.error(`VIOLATION: ${problem}`);
		if (problems.length > 0) process.exitCode = 1;
	} finally {
		await Promise.all(sandboxes.map((sandbox) => sandbox.stop()));
	}
}

async function main(): Promise<void> {
	checkOptions(
		['rounds', 'item-rounds', 'items', 'large', 'latencies', 'out'],
		['widest-only', 'return-all-only'],
		', or first one of --memory, --data-tables, --large-import, --soak and its options',
	);
	const [rounds, itemRounds, itemCount, large] = ['rounds', 'item-rounds', 'items', 'large'].map(
		(name, i) => Number(option(name, ['5', '3', '1000', '100000'][i])),
	);
	if (process.argv.includes('--widest-only')) return widestOnly(itemCount, itemRounds);
	if (process.argv.includes('--return-all-only')) return returnAllOnly(large, rounds);
	const out = option('out', repoPath('bench', 'results.md'));
	const run = startRun();
	log(`bench: ${rounds} rounds`);
	const results: BenchResults = {
		run: run.finish(),
		rounds,
		concurrent: CONCURRENT,
		ratePerSecond: RATE_LIMIT_PER_SECOND,
		violations: [],
		failures: [],
		pending: [...BENCH_SECTIONS],
	};
	/** Runs one section; whatever happens, results.md is rewritten with every figure measured so far. */
	const section = async (name: BenchSection, measure: () => Promise<void>): Promise<void> => {
		log(`— ${name}`);
		try {
			await measure();
		} catch (error) {
			const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
			results.failures.push({ section: name, reason });
			console.error(`bench: ${name} failed:\n${reason}`);
		} finally {
			results.pending = results.pending.filter((pending) => pending !== name);
			results.run = run.finish();
			writeFileSync(out, renderResults(results));
			log(
				`wrote ${out} (${BENCH_SECTIONS.length - results.pending.length} of ${BENCH_SECTIONS.length} sections)`,
			);
		}
	};
	// n8n's HTTP Request node and the real-n8n run come from the installed n8n (the e2e's cache; installed if absent).
	const n8n = ensureN8n(PRIMARY_N8N_VERSION, log);
	n8n.catch(() => undefined); // awaited (and reported) by the sections that need it
	// One sandbox process per size, all up for the whole run so every round covers every size; one more
	// large one with latency, and one for the per-item runs (their creates must not change the lists).
	// Two more of 10,000: one under a rate limit, one that ignores sort=asc (as some services do).
	const sizes = [large, large, itemCount, ...SCALING_SIZES, SMALL_LIST, SMALL_LIST];
	log(`sandboxes: seeding ${sizes.map((n) => n.toLocaleString('en')).join(', ')} tickets`);
	const started = await Promise.allSettled(
		sizes.map((n, i) => startSandboxProcess(n, i === sizes.length - 1 ? ['--sort', 'none'] : [])),
	);
	const sandboxes = started.flatMap((result) =>
		result.status === 'fulfilled' ? [result.value] : [],
	);
	try {
		const failed = started.find(
			(result): result is PromiseRejectedResult => result.status === 'rejected',
		);
		const ready = async (): Promise<void> => {
			if (failed) throw failed.reason;
		};
		const [largeSandbox, slow, itemSandbox, ...small] = sandboxes;
		const [limited, ignoresSort] = small.splice(-2) as SandboxProcess[];
		await section('Per-item operations', async () => {
			await ready();
			log(
				`per-item scenarios: ${itemCount} items, ${itemRounds} round(s) at ${ITEM_LATENCY_MS} ms latency, 1 under the rate limit`,
			);
			const ticketIds = Array.from({ length: itemCount }, (_, i) => `tkt_${i + 1}`);
			results.items = await compareItems(
				itemScenarios(itemCount, itemRounds),
				itemSandbox.target,
				{ ticketIds, httpRequestNodeFile: httpRequestNodeFile(await n8n) },
				log,
			);
			results.violations.push(...results.items.flatMap(itemViolations));
		});
		await section('Creates when answers are lost', async () => {
			// Its own sandboxes, in this process (like the tests): 1,000 creates at Concurrent Requests 16 and 1.
			isolateUserFolder();
			const { figures, markdown } = await benchCreateRecovery(itemCount, log);
			results.createRecovery = markdown;
			results.violations.push(
				...figures.flatMap((f) =>
					createRecoveryViolations(f).map(
						(problem) =>
							`creates when answers are lost, Concurrent Requests ${f.concurrentRequests}: ${problem}`,
					),
				),
			);
		});
		await section('Return All and Limit', async () => {
			await ready();
			await slow.setFaults({ latencyMs: RETURN_ALL_LATENCY_MS });
			await limited.setFaults({ rateLimit: { perSecond: RATE_LIMIT_PER_SECOND } });
			const comparisons = await compareInterleaved(
				[
					{
						spec: returnAll(large),
						sandbox: largeSandbox,
						sides: ['raw', 'node', 'node-both-ends', 'n8n-http'],
					},
					{
						spec: returnAll(
							large,
							`Return All ${large.toLocaleString('en')} at ${RETURN_ALL_LATENCY_MS} ms`,
						),
						sandbox: slow,
						sides: ['raw', 'node', 'node-both-ends', 'n8n-http'],
					},
					{
						spec: {
							title: `Limit ${LIMIT}`,
							tickets: large,
							limit: LIMIT,
							expectedItems: LIMIT,
							expectedCalls: Math.ceil(LIMIT / 100),
						},
						sandbox: largeSandbox,
						sides: ['raw', 'node'],
					},
					...small.map((sandbox, i) => ({
						spec: returnAll(SCALING_SIZES[i]),
						sandbox,
						sides: ['raw', 'node'] as Side[],
					})),
					{
						spec: { ...returnAll(SMALL_LIST, RATE_LIMITED_TITLE), rateLimited: true },
						sandbox: limited,
						sides: ['node', 'node-both-ends'] as Side[],
					},
					{
						spec: returnAll(SMALL_LIST, IGNORED_SORT_TITLE),
						sandbox: ignoresSort,
						sides: ['node', 'node-both-ends'] as Side[],
					},
				],
				rounds,
				log,
			);
			const [main, slowMain, limit, ...smaller] = comparisons;
			const [rateLimited, ignoredSort] = smaller.splice(-2) as Comparison[];
			results.traversals = {
				main,
				slowMain,
				limit,
				scaling: [...smaller, main],
				rateLimited,
				ignoredSort,
			};
			results.violations.push(...comparisons.flatMap(violations));
		});
		await section('Real n8n', async () => {
			await ready();
			// The last scaling sandbox, reused.
			const realTickets = SCALING_SIZES[SCALING_SIZES.length - 1];
			const install = await n8n;
			log(
				`real n8n ${install.version}: Return All ${realTickets.toLocaleString('en')} through n8n execute`,
			);
			results.realN8n = await measureRealN8nReturnAll(
				install,
				small[small.length - 1],
				realTickets,
			);
		});
		await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.stop()));
		await section('Signing and verification', async () => {
			results.signing = measureSigningCosts();
		});
		for (const violation of results.violations) console.error(`VIOLATION: ${violation}`);
		for (const { section: name } of results.failures)
			console.error(`FAILED SECTION: ${name} (why: in ${out})`);
		if (results.violations.length > 0 || results.failures.length > 0) process.exitCode = 1;
	} finally {
		await Promise.all(sandboxes.map((sandbox) => sandbox.stop()));
	}
}

const variant = runVariant({
	'--memory': () => import('./pageMemory'),
	'--data-tables': () => import('./dataTableSize'),
	'--large-import': async () => {
		ensureQueueServices();
		await import('./largeImport');
	},
	'--soak': () => import('./soak'),
});
if (!variant) {
	main().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : error);
		process.exitCode = 1;
	});
}
