/** Renders the figures of one `npm run bench` as bench/results.md. */
import { repoPath } from '../test/harness/repoPath';
import type { ItemComparison } from './compareItems';
import { type Comparison, medianOf, ofSide, roundRatios } from './compareSides';
import type { ItemSide } from './itemWorkflows';
import { itemsSection, itemSummaryRows } from './itemsReport';
import { realN8nSection, realN8nSummaryRows, type RealN8nFigures } from './realN8nReturnAll';
import type { Measurement } from './forkMeasurement';
import type { MachineFacts } from './machineFacts';
import { memorySection } from './memorySection';
import type { Side } from './measureTraversal';
import type { ProfileReport } from './profileRun';
import { formatSummary } from './profileSummary';
import type { MicroResult } from './signingCost';
import { median } from './stats';

export interface BenchResults {
	startedAt: Date;
	durationSeconds: number;
	command: string;
	facts: MachineFacts;
	loadBefore: string;
	loadAfter: string;
	rounds: number;
	main: Comparison;
	/** Return All with service latency. */
	slowMain: Comparison;
	items: ItemComparison[];
	realN8n: RealN8nFigures;
	/** The node side with the default Concurrent Requests. */
	concurrent: ItemSide;
	ratePerSecond: number;
	limit: Comparison;
	scaling: Comparison[];
	profile: ProfileReport;
	signing: MicroResult[];
	violations: string[];
	analysis: string;
}

export const TARGETS = { overN8nHttp: 1.05, verify1kUs: 50, perTicketGrowth: 1.25 };

const MIB = 2 ** 20;
const wall = (m: Measurement): number => m.wallMs;
const cpu = (m: Measurement): number => m.cpuMs;
const peakRss = (m: Measurement): number => m.maxRssBytes;
const rssGrowth = (m: Measurement): number => m.maxRssBytes - m.rssBeforeBytes;
const retainedHeap = (m: Measurement): number => m.heapAfterBytes - m.heapBeforeBytes;

const f0 = (n: number): string => n.toFixed(0);
const f2 = (n: number): string => n.toFixed(2);
const mib = (bytes: number): string => String(Math.round(bytes / MIB) || 0); // never "-0"
const verdict = (ok: boolean): string => (ok ? 'met' : '**not met**');
const spread = (values: number[]): string => `${f2(median(values))} (rounds ${f2(Math.min(...values))}–${f2(Math.max(...values))})`;

function table(header: string[], rows: string[][], align: string[] = header.map((_, i) => (i === 0 ? '---' : '---:'))): string {
	return [`| ${header.join(' | ')} |`, `|${align.join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

function summaryTable(results: BenchResults): string {
	const { main, slowMain, limit, signing } = results;
	const nodeCalls = [...ofSide(main, 'node'), ...ofSide(slowMain, 'node')].map((m) => m.calls);
	const limitCalls = ofSide(limit, 'node').map((m) => m.calls);
	const verify1k = signing.find((r) => r.name.includes('1 KB body: verify'))?.medianUs ?? Number.NaN;
	const sign = signing.find((r) => r.name.includes('as the credential does'))?.medianUs ?? Number.NaN;
	const growth = perTicketGrowth(results);
	const returnAllRows = [main, slowMain].flatMap((comparison) => {
		const overHttp = roundRatios(comparison, wall, 'n8n-http');
		return [
			[`${comparison.title}: wall time node ÷ n8n's HTTP helper alone`, spread(overHttp), `≤ ${TARGETS.overN8nHttp}`, verdict(median(overHttp) <= TARGETS.overN8nHttp)],
			[`${comparison.title}: wall time node ÷ raw undici (reference)`, spread(roundRatios(comparison, wall)), '', ''],
		];
	});
	return table(
		['figure', 'measured', 'target', ''],
		[
			...itemSummaryRows(results.items, results.concurrent, results.ratePerSecond),
			...returnAllRows,
			...realN8nSummaryRows(results.realN8n),
			[`Return All ${main.tickets.toLocaleString('en')}: calls (node, every round, 0 and 5 ms)`, unique(nodeCalls), `exactly ${main.expectedCalls}`, verdict(nodeCalls.every((c) => c === main.expectedCalls))],
			[`Return All ${main.tickets.toLocaleString('en')}: client CPU node ÷ n8n's HTTP helper (reference)`, spread(roundRatios(main, cpu, 'n8n-http')), '', ''],
			['peak RSS node ÷ raw (reference; each side alone in its process)', spread(roundRatios(main, peakRss)), '', ''],
			[`Limit ${limit.limit}: calls (node, every round)`, unique(limitCalls), `exactly ${limit.expectedCalls}`, verdict(limitCalls.every((c) => c === limit.expectedCalls))],
			['signing one request (signRequestOptions)', `${f2(sign)} µs`, '', ''],
			['verifying one webhook delivery, 1 KB body', `${f2(verify1k)} µs`, `< ${TARGETS.verify1kUs} µs`, verdict(verify1k < TARGETS.verify1kUs)],
			['node: CPU time per ticket, 100k ÷ 10k (wall: ' + f2(growth.wall) + ')', f2(growth.cpu), `≤ ${TARGETS.perTicketGrowth} (flat)`, verdict(growth.cpu <= TARGETS.perTicketGrowth)],
			['node: retained heap per ticket, 100k ÷ 10k', f2(growth.memory), `≤ ${TARGETS.perTicketGrowth} (flat)`, verdict(growth.memory <= TARGETS.perTicketGrowth)],
		],
		['---', '---:', '---:', '---'],
	);
}

function unique(values: number[]): string {
	return [...new Set(values)].join(', ');
}

export function perTicketGrowth(results: BenchResults): { cpu: number; wall: number; memory: number } {
	const bySize = (tickets: number): Comparison | undefined => results.scaling.find((c) => c.tickets === tickets);
	const small = bySize(10_000);
	const large = bySize(100_000);
	if (!small || !large) return { cpu: Number.NaN, wall: Number.NaN, memory: Number.NaN };
	const perTicket = (c: Comparison, figure: (m: Measurement) => number): number => medianOf(c, 'node', figure) / c.tickets;
	return {
		cpu: perTicket(large, cpu) / perTicket(small, cpu),
		wall: perTicket(large, wall) / perTicket(small, wall),
		memory: perTicket(large, retainedHeap) / perTicket(small, retainedHeap),
	};
}

function roundsTable(comparison: Comparison): string {
	return table(
		['round', 'side', 'wall ms', 'client CPU ms', 'peak RSS MiB', 'RSS before MiB', 'retained heap MiB', 'calls', 'sandbox ms'],
		comparison.measurements.map((m) => [
			String(m.round),
			m.side,
			f0(m.wallMs),
			f0(m.cpuMs),
			// * = the peak was reached before the timed traversal (loading, warm-up, V8 sizing its heap).
			`${mib(m.maxRssBytes)}${m.maxRssBeforeBytes >= m.maxRssBytes ? '*' : ''}`,
			mib(m.rssBeforeBytes),
			mib(retainedHeap(m)),
			String(m.calls),
			f0(m.sandboxMs),
		]),
	);
}

const SIDE_MEANING: Record<Side, string> = {
	raw: 'undici, one keep-alive connection, signed with nodes/shared',
	'raw-new-connection': 'the same loop, a new TCP connection per request',
	'n8n-http': "n8n's HTTP helper (OutboundHttp → axios) + signRequestOptions, no engine",
	node: 'Support Ticket node, Return All, through WorkflowExecute',
};

function decompositionTable(comparison: Comparison, sides: Side[]): string {
	const calls = comparison.expectedCalls;
	let previousCpu: number | undefined;
	const rows = sides.map((side) => {
		const cpuMs = medianOf(comparison, side, cpu);
		const step = previousCpu === undefined ? '' : `+${f0(((cpuMs - previousCpu) * 1000) / calls)}`;
		previousCpu = cpuMs;
		return [
			`${side}: ${SIDE_MEANING[side]}`,
			f0(medianOf(comparison, side, wall)),
			f0(cpuMs),
			f0((cpuMs * 1000) / calls),
			step,
			mib(medianOf(comparison, side, peakRss)),
			mib(medianOf(comparison, side, rssGrowth)),
			f0(medianOf(comparison, side, (m) => m.sandboxMs)),
		];
	});
	return table(['side (median of rounds)', 'wall ms', 'client CPU ms', 'CPU µs / request', 'step µs / request', 'peak RSS MiB', 'RSS growth MiB', 'sandbox ms'], rows);
}

function scalingTable(results: BenchResults): string {
	const rows: string[][] = [];
	for (const c of results.scaling) {
		for (const side of ['raw', 'node'] as Side[]) {
			rows.push([
				c.tickets.toLocaleString('en'),
				side,
				String(ofSide(c, side).length),
				f0(medianOf(c, side, wall)),
				f2((medianOf(c, side, wall) * 1000) / c.tickets),
				f2((medianOf(c, side, cpu) * 1000) / c.tickets),
				f0(medianOf(c, side, rssGrowth) / c.tickets),
				f0(medianOf(c, side, retainedHeap) / c.tickets),
				mib(medianOf(c, side, peakRss)),
				side === 'node' ? f2(median(roundRatios(c, wall))) : '',
			]);
		}
	}
	return table(['tickets', 'side', 'rounds', 'wall ms', 'wall µs / ticket', 'CPU µs / ticket', 'RSS growth B / ticket', 'retained heap B / ticket', 'peak RSS MiB', 'wall node ÷ raw'], rows);
}

function signingTable(results: MicroResult[]): string {
	return table(
		['operation', 'median µs / call', 'fastest round', 'slowest round', 'calls × rounds'],
		results.map((r) => [r.name, f2(r.medianUs), f2(r.minUs), f2(r.maxUs), `${r.callsPerRound.toLocaleString('en')} × ${r.rounds}`]),
	);
}

function profileSection(profile: ProfileReport): string {
	const parts: string[] = [];
	for (const run of profile.runs) {
		parts.push(`#### ${run.side} side (${SIDE_MEANING[run.side]}), profiled: ${f0(run.measurement.wallMs)} ms wall, ${f0(run.measurement.cpuMs)} ms CPU`, '', formatSummary(run.summary, 12), '');
	}
	parts.push('#### The sandbox process over the same runs (its seeding left out)', '', formatSummary(profile.sandbox, 10), '');
	return parts.join('\n');
}

export function renderResults(results: BenchResults): string {
	const { facts, main } = results;
	const sides = [...new Set(main.measurements.map((m) => m.side))];
	return [
		'# Benchmarks: what a user waits for',
		'',
		`Written by \`${results.command}\` on ${results.startedAt.toISOString()} in ${f0(results.durationSeconds)} s. Re-run it to refresh every figure below`,
		'(the analysis at the end is kept by hand in `bench/analysis.md`).',
		'',
		results.violations.length === 0
			? 'Every measured traversal returned every ticket in exactly the expected number of calls; this node lost no item and duplicated no create.'
			: `**Violations:**\n\n${results.violations.map((v) => `- ${v}`).join('\n')}`,
		'',
		'## Summary',
		'',
		summaryTable(results),
		'',
		'## How this was measured',
		'',
		`- **Machine:** ${facts.cpu}, ${facts.cores} cores, ${facts.memoryGb.toFixed(0)} GiB, ${facts.os}; Node ${facts.node}; ` +
			Object.entries(facts.packages)
				.map(([name, version]) => `${name} ${version}`)
				.join(', ') +
			'.',
		`- **Load average** (1/5/15 min) before: ${results.loadBefore}; after: ${results.loadAfter}. This machine is shared with other jobs, so absolute`,
		'  times move from run to run: read the **ratios**, which come from the two sides run back to back in the same round under the',
		'  same conditions (same sandbox process, same flags, fresh child processes, order rotated every round, all sizes interleaved',
		'  round by round), not the milliseconds. Client CPU time is shown next to wall time: it moves less when the machine is busy.',
		'- **Processes:** the sandbox (`build/test/sandbox/cli.js`) runs in a process of its own; every measurement runs in a fresh child',
		'  (`bench/measureTraversal.tsx`, `node --expose-gc`) that loads its side, warms up with 20 Limit 250 traversals, runs a full GC, and',
		'  then times exactly one traversal. Peak RSS is that child\'s `process.resourceUsage().maxRSS` (so it includes what each side',
		'  has to load: n8n-core for the node); "RSS growth" is peak RSS minus the RSS just before the timed traversal; "retained heap" is',
		'  `heapUsed` after the traversal and a full GC, minus before, with all items still held. Calls are counted from the sandbox\'s own',
		'  request log (cleared after the warm-up); "sandbox ms" sums the sandbox\'s time per request from that log.',
		'- **Sides:** ' +
			sides.map((side) => `\`${side}\` = ${SIDE_MEANING[side]}`).join('; ') +
			". The target is `node` ÷ `n8n-http` (the limit reachable inside n8n); `raw` and `raw-new-connection` split the rest of the difference.",
		`- **Commands:** \`npm run bench\` (= \`npm run build && npm run build:tools && node build/bench/run.js\`, ${results.rounds} rounds); parts alone:`,
		'  `node build/bench/signingCost.js`, `node build/bench/profileSummary.js <file.cpuprofile>`.',
		'',
		itemsSection(results.items),
		`## Return All of ${main.tickets.toLocaleString('en')} tickets, per_page 100, ${results.rounds} rounds`,
		'',
		'Where the difference comes from (medians; "step" is the extra client CPU per request over the line above):',
		'',
		decompositionTable(main, ['raw', 'raw-new-connection', 'n8n-http', 'node'].filter((s) => sides.includes(s as Side)) as Side[]),
		'',
		'Every round (a `*` on peak RSS: the peak was reached before the timed traversal, while loading or warming up):',
		'',
		roundsTable(main),
		'',
		realN8nSection(results.realN8n),
		`## ${results.slowMain.title} service latency per request, ${results.rounds} rounds`,
		'',
		decompositionTable(results.slowMain, ['raw', 'n8n-http', 'node']),
		'',
		roundsTable(results.slowMain),
		'',
		`## Limit ${results.limit.limit} (${results.limit.expectedCalls} calls), ${results.rounds} rounds`,
		'',
		roundsTable(results.limit),
		'',
		'## How cost grows: 1k, 10k, 100k tickets',
		'',
		'Medians per size (100k are the rounds above; every size ran in every round). Per-ticket figures at 1k carry the fixed cost of a',
		'run (building the workflow, the first request), so flatness is read from 10k to 100k, on CPU time and retained heap (wall time',
		'follows the machine\'s load; at 1k and 10k the peak RSS is mostly V8 sizing its heap during the warm-up, not the items).',
		'',
		scalingTable(results),
		'',
		'## Signing and webhook verification (nodes/shared/signature.ts, signRequestOptions.ts)',
		'',
		'In the bench process, after all child processes ended: 200 ms warm-up per operation, then rounds of about 60 ms each.',
		'',
		signingTable(results.signing),
		'',
		'## Where the time goes (one profiled run per side)',
		'',
		'Self time from the V8 profiler over exactly the timed traversal (inspector `Profiler.start/stop` in the child). A native frame',
		"(socket write, hashing) is charged to its nearest JavaScript caller's file; JSON.parse inside axios shows as axios'",
		"`transformResponse`, inside undici as `consumeEnd`. Profiling slows everything, so only the shares count.",
		'',
		profileSection(results.profile),
		results.analysis.trim(),
		'',
		// Written by `npm run bench:memory`; kept here so regenerating results.md does not drop it.
		memorySection(repoPath('bench', 'memory-results.md')),
		'',
	].join('\n');
}
