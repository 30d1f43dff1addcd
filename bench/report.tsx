/**
 * The one report writer: bench/results.md (`npm run bench`), bench/memory-results.md
 * (`npm run bench -- --memory`) and the memory section of results.md, which either run keeps.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

import { repoPath } from '../test/harness';
import { type ImportMeasurement, type ImportMode, IMPORT_MODES } from './imports';
import type { ItemComparison, ItemMeasurement, ItemSide } from './items';
import type { RealN8nFigures, RealN8nRun } from './realN8n';
import type { Comparison, Measurement, Side } from './traversal';

export function median(values: number[]): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const ratio = (numerator: number, denominator: number): number =>
	denominator === 0 ? Number.NaN : numerator / denominator;

/** One micro-benchmark of signingCost.tsx: microseconds per call over several rounds. */
export type MicroResult = {
	name: string;
	medianUs: number;
	minUs: number;
	maxUs: number;
	callsPerRound: number;
	rounds: number;
};

const MIB = 2 ** 20;
const fixed =
	(digits: number) =>
	(n: number): string =>
		Number.isFinite(n) ? n.toFixed(digits) : '–';
const [f1, f2] = [fixed(1), fixed(2)];
const f0 = (n: number): string => (Number.isFinite(n) ? String(Math.round(n) || 0) : '–'); // never "-0"
const mib = (bytes: number): string => f0(bytes / MIB);
const count = (n: number): string => n.toLocaleString('en');
const verdict = (ok: boolean): string => (ok ? 'met' : '**not met**');
const spread = (values: number[]): string =>
	values.length === 0
		? 'n/a'
		: `${f2(median(values))} (rounds ${f2(Math.min(...values))}–${f2(Math.max(...values))})`;
const unique = (values: number[]): string => [...new Set(values)].join(', ');
const sum = <T,>(list: T[], figure: (t: T) => number): number =>
	list.reduce((total, t) => total + figure(t), 0);
/** `*` on a peak RSS: the peak was reached before the measured part (loading, warm-up, V8 sizing its heap). */
const peak = (m: { maxRssBytes: number; maxRssBeforeBytes: number }): string =>
	`${mib(m.maxRssBytes)}${m.maxRssBeforeBytes >= m.maxRssBytes ? '*' : ''}`;
const retained = (m: { heapAfterBytes: number; heapBeforeBytes: number }): number =>
	m.heapAfterBytes - m.heapBeforeBytes;
const growth = (m: { maxRssBytes: number; rssBeforeBytes: number }): number =>
	m.maxRssBytes - m.rssBeforeBytes;

/** The one table helper: a markdown table, first column left-aligned and the others right-aligned unless told. */
export function table(
	header: string[],
	rows: string[][],
	align: string[] = header.map((_, i) => (i === 0 ? '---' : '---:')),
): string {
	return [
		`| ${header.join(' | ')} |`,
		`|${align.join('|')}|`,
		...rows.map((row) => `| ${row.join(' | ')} |`),
	].join('\n');
}

/** What a reader needs to judge absolute numbers: the machine, the runtimes, how busy it was. */
export type RunFacts = {
	startedAt: Date;
	durationSeconds: number;
	command: string;
	loadBefore: string;
	loadAfter: string;
	machine: string;
};

/** Refuses an option it does not know: a mistyped one must not start a long run with the defaults. */
export function checkOptions(valued: string[], flags: string[] = [], variants = ''): void {
	const argv = process.argv.slice(2);
	for (let i = 0; i < argv.length; i++) {
		const name = argv[i].replace(/^--/, '');
		if (flags.includes(name)) continue;
		if (!valued.includes(name) || argv[++i] === undefined) {
			throw new Error(
				`usage: [${[...valued.map((v) => `--${v} X`), ...flags.map((f) => `--${f}`)].join('] [')}]${variants}`,
			);
		}
	}
}

/** `--name value` from the command line. */
export function option(name: string, fallback: string): string {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

export const loadAverage = (): string =>
	os
		.loadavg()
		.map((load) => load.toFixed(2))
		.join(' / ');

/** `variant`: the first argument of `npm run bench` that picked this measurement, e.g. `--memory`. */
export function startRun(variant?: string): { finish(): RunFacts } {
	const [startedAt, loadBefore, args] = [
		new Date(),
		loadAverage(),
		process.argv.slice(2).join(' '),
	];
	const file = (name: string): string => repoPath('node_modules', name, 'package.json');
	const version = (name: string): string =>
		existsSync(file(name))
			? (JSON.parse(readFileSync(file(name), 'utf8')) as { version: string }).version
			: 'not installed';
	const packages = ['n8n-core', 'n8n-workflow', 'undici', 'axios', 'typescript']
		.map((name) => `${name} ${version(name)}`)
		.join(', ');
	const cpus = os.cpus();
	const machine = `${cpus[0]?.model.trim() ?? 'unknown'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()} ${os.arch()}; Node ${process.version}; ${packages}.`;
	const rest = [variant, args].filter(Boolean).join(' ');
	const command = `npm run bench${rest ? ` -- ${rest}` : ''}`;
	return {
		finish: () => ({
			startedAt,
			durationSeconds: (Date.now() - startedAt.getTime()) / 1000,
			command,
			loadBefore,
			loadAfter: loadAverage(),
			machine,
		}),
	};
}

const writtenBy = (run: RunFacts, rest: string): string =>
	`Written by \`${run.command}\` on ${run.startedAt.toISOString()} in ${f0(run.durationSeconds)} s. Re-run it to refresh every figure below${rest}`;

// ---- bench/results.md ----

/** `slowMain`: Return All with service latency. */
export type Traversals = {
	main: Comparison;
	slowMain: Comparison;
	limit: Comparison;
	scaling: Comparison[];
	/** Read From Both Ends under a rate limit, and on a service that ignores sort=asc. */
	rateLimited?: Comparison;
	ignoredSort?: Comparison;
};

/** The sections of results.md, in the order they run; the file is rewritten as each one ends. */
export const BENCH_SECTIONS = [
	'Per-item operations',
	'Creates when answers are lost',
	'Return All and Limit',
	'Real n8n',
	'Signing and verification',
] as const;
export type BenchSection = (typeof BENCH_SECTIONS)[number];

/**
 * What one `npm run bench` measured so far: a section's figures are absent until it ends, and stay
 * absent when it failed (`failures` says why); the other sections' figures stand.
 * `concurrent`: the node side with the default Concurrent Requests.
 */
export type BenchResults = {
	run: RunFacts;
	rounds: number;
	concurrent: ItemSide;
	ratePerSecond: number;
	items?: ItemComparison[];
	createRecovery?: string;
	traversals?: Traversals;
	realN8n?: RealN8nFigures;
	signing?: MicroResult[];
	violations: string[];
	failures: Array<{ section: BenchSection; reason: string }>;
	pending: BenchSection[];
};

export const TARGETS = {
	overN8nHttp: 1.05,
	bothEndsOverN8nHttp: 0.6,
	verify1kUs: 50,
	perTicketGrowth: 1.25,
	speedUp: 6,
	overHttpRequest: 1.0,
	/** Concurrent Requests at its highest ÷ the HTTP Request node at its best batching (issue 42). */
	widestOverHttpRequest: 0.9,
	rateTolerance: 0.1,
};

const ofSide = <M extends { side: string }>(c: { measurements: M[] }, side: string): M[] =>
	c.measurements.filter((m) => m.side === side);
const medianOf = (c: Comparison, side: Side, figure: (m: Measurement) => number): number =>
	median(ofSide(c, side).map(figure));
const wall = (m: { wallMs: number }): number => m.wallMs;
const cpu = (m: { cpuMs: number }): number => m.cpuMs;

/** Per-round ratio of a figure, `top` side over `bottom` side of the same round. */
function roundRatios<M extends { side: string; round: number }>(
	c: { measurements: M[] },
	figure: (m: M) => number,
	bottom: string,
	top = 'node',
): number[] {
	const under = (t: M): M[] =>
		c.measurements.filter((m) => m.side === bottom && m.round === t.round);
	return ofSide(c, top).flatMap((t) => under(t).map((b) => ratio(figure(t), figure(b))));
}

const SIDE_MEANING: Record<Side, string> = {
	raw: 'undici, one keep-alive connection, signed with nodes/shared',
	'n8n-http': "n8n's HTTP helper (OutboundHttp → axios) + signRequestOptions, no engine",
	node: 'Support Ticket node, Return All, through WorkflowExecute',
	'node-both-ends': 'the same with Options → Read From Both Ends',
};

const ITEM_SIDE_MEANING: Record<string, string> = {
	'http-request':
		"n8n's HTTP Request node (n8n-nodes-base 2.41.1, v4.5, defaults, Support Ticket credential as predefined type)",
	'http-request-retry': 'the same with Retry On Fail (3 tries, 1 s apart)',
	'node-1': 'this node, Concurrent Requests 1 (one item after another)',
};
const itemSideMeaning = (side: ItemSide): string =>
	ITEM_SIDE_MEANING[side] ??
	(side.startsWith('http-request-batch-')
		? `the same, Batching ${side.slice('http-request-batch-'.length)} items per batch, 1 ms apart`
		: `this node, Concurrent Requests ${side.slice('node-'.length)}`);

const itemLabel = (c: ItemComparison): string =>
	`${count(c.count)} ${c.operation === 'create' ? 'ticket creates' : 'ticket gets'}, ${c.title}`;

/** A Summary row: figure, measured, target and whether it was met (no verdict when undefined). */
type Row = [figure: string, measured: string, target: string, met?: boolean];

const lost = (ms: ItemMeasurement[]): number => sum(ms, (m) => m.lost);
const duplicates = (ms: ItemMeasurement[]): number => sum(ms, (m) => m.duplicates);

/** Each node side's wall time ÷ the HTTP Request side of the lowest median, round by round. */
function fastestHttpRequestRows(c: ItemComparison, nodeSides: ItemSide[]): Row[] {
	const label = itemLabel(c);
	const http = c.sides.filter((side) => side.startsWith('http-request'));
	const medianWall = (side: ItemSide): number => median(ofSide(c, side).map(wall));
	const fastest = http.reduce((best, side) => (medianWall(side) < medianWall(best) ? side : best));
	const walls = http.map((side) => `${side} ${f0(medianWall(side))}`).join(', ');
	const nodes = c.measurements.filter((m) => m.side.startsWith('node-'));
	return [
		...nodeSides.map((side, i): Row => {
			const overHttp = roundRatios(c, wall, fastest, side);
			const target = TARGETS.widestOverHttpRequest;
			return [
				`${label}: wall time ${side} ÷ HTTP Request node at its fastest batching (${fastest})`,
				spread(overHttp),
				i === 0 ? `≤ ${target}` : 'for reference',
				i === 0 ? median(overHttp) <= target : undefined,
			];
		}),
		[`${label}: HTTP Request node, median wall ms per batching`, walls, 'for reference'],
		[
			`${label}: main thread busy ÷ wall time, ${nodeSides[0]} / ${fastest}`,
			[nodeSides[0], fastest]
				.map((side) => f2(median(ofSide(c, side).map((m) => ratio(m.busyMs, m.wallMs)))))
				.join(' / '),
			'for reference',
		],
		[
			`${label}: client CPU ${nodeSides[0]} ÷ ${fastest}`,
			spread(roundRatios(c, cpu, fastest, nodeSides[0])),
			'for reference',
		],
		[
			`${label}: duplicates / lost items, every node side and round`,
			`${duplicates(nodes)} / ${lost(nodes)}`,
			'0 / 0',
			duplicates(nodes) + lost(nodes) === 0,
		],
	];
}

/** Latency scenarios: `concurrent` against `node-1` and `http-request`; rate-limited ones: failures and the rate. */
function itemSummaryRows({
	items = [],
	concurrent,
	ratePerSecond: perSecond,
}: BenchResults): Row[] {
	return items.flatMap((c): Row[] => {
		const label = itemLabel(c);
		const [node, sequential] = [ofSide(c, concurrent), ofSide(c, 'node-1')];
		if (c.againstFastestHttpRequest) return fastestHttpRequestRows(c, c.againstFastestHttpRequest);
		if (c.faults.rateLimit === undefined) {
			const [speedUp, overHttp, cpuOverHttp] = [
				roundRatios(c, wall, concurrent, 'node-1'),
				roundRatios(c, wall, 'http-request', concurrent),
				roundRatios(c, cpu, 'http-request', concurrent),
			];
			const nodeSides = c.measurements.filter((m) => m.side.startsWith('node-'));
			return [
				[
					`${label}: speed-up ${concurrent} over node-1 (sequential ÷ concurrent wall time)`,
					spread(speedUp),
					`≥ ${TARGETS.speedUp}`,
					median(speedUp) >= TARGETS.speedUp,
				],
				[
					`${label}: wall time ${concurrent} ÷ HTTP Request node`,
					spread(overHttp),
					`≤ ${TARGETS.overHttpRequest}`,
					median(overHttp) <= TARGETS.overHttpRequest,
				],
				[
					`${label}: client CPU ${concurrent} ÷ HTTP Request node`,
					spread(cpuOverHttp),
					`≤ ${TARGETS.overHttpRequest}`,
					median(cpuOverHttp) <= TARGETS.overHttpRequest,
				],
				[
					`${label}: duplicates / lost items, every node side and round`,
					`${duplicates(nodeSides)} / ${lost(nodeSides)}`,
					'0 / 0',
					duplicates(nodeSides) + lost(nodeSides) === 0,
				],
			];
		}
		const rates = node.map((m) => m.ratePerSecond);
		const httpRow = (side: ItemSide, name: string): Row[] => {
			const http = ofSide(c, side);
			const failed = http.find((m) => m.runError)?.runError;
			return http.length === 0
				? []
				: [
						[
							`${label}: HTTP Request node, ${name}: lost items / duplicates`,
							`${lost(http)} of ${c.count * http.length} / ${duplicates(http)}${failed ? ` (run failed: "${failed.slice(0, 60)}")` : ''}`,
							'for reference',
						],
					];
		};
		return [
			[
				`${label}: ${concurrent} failed (lost) items / duplicates`,
				`${lost(node)} / ${duplicates(node)}`,
				'0 / 0',
				lost(node) + duplicates(node) === 0,
			],
			[
				`${label}: ${concurrent} achieved rate (2xx per second of wall time)`,
				`${rates.map(f1).join(', ')} req/s`,
				`${perSecond} ± ${TARGETS.rateTolerance * 100}%`,
				rates.length > 0 &&
					rates.every((r) => Math.abs(r - perSecond) <= perSecond * TARGETS.rateTolerance),
			],
			...(sequential.length === 0
				? []
				: [
						[
							`${label}: requests refused (429), ${concurrent} / node-1 (one item after another)`,
							`${sum(node, (m) => m.refused)} / ${sum(sequential, (m) => m.refused)}`,
							'for reference',
						] as Row,
					]),
			...httpRow('http-request', 'defaults'),
			...httpRow('http-request-retry', 'Retry On Fail'),
		];
	});
}

function realN8nPerPage({ one, all }: RealN8nFigures) {
	const extraPages = all.pages - one.pages;
	return {
		extraPages,
		perPage: (all.nodeMs - one.nodeMs) / extraPages,
		readsPerPage: (all.credentialReads - one.credentialReads) / extraPages,
	};
}

/** Per ticket, 100k ÷ 10k: flat is about 1. */
function perTicketGrowth(scaling: Comparison[]): { cpu: number; wall: number; memory: number } {
	const [small, large] = [10_000, 100_000].map((tickets) =>
		scaling.find((c) => c.tickets === tickets),
	);
	if (!small || !large) return { cpu: Number.NaN, wall: Number.NaN, memory: Number.NaN };
	const grows = (figure: (m: Measurement) => number): number =>
		medianOf(large, 'node', figure) /
		large.tickets /
		(medianOf(small, 'node', figure) / small.tickets);
	return { cpu: grows(cpu), wall: grows(wall), memory: grows(retained) };
}

/** A service that ignores sort=asc: from both ends is one chain, its first page read once more. */
function ignoredSortRows(c: Comparison): Row[] {
	const both = ofSide(c, 'node-both-ends');
	const calls = both.map((m) => m.calls);
	const items = both.map((m) => m.items);
	const warnings = both.map((m) => m.warnings ?? 0);
	const overOneChain = roundRatios(c, wall, 'node', 'node-both-ends');
	return [
		[
			`${c.title}: from both ends, calls / items / warnings in n8n's log (every round)`,
			`${unique(calls)} / ${unique(items)} / ${unique(warnings)}`,
			`${c.expectedCalls + 1} / ${c.expectedItems} / 1`,
			calls.every((n) => n === c.expectedCalls + 1) &&
				items.every((n) => n === c.expectedItems) &&
				warnings.every((n) => n === 1),
		],
		[`${c.title}: wall time from both ends ÷ one chain`, spread(overOneChain), ''],
	];
}

/** Under a rate limit: every ticket, at close to the limit (calls per second of wall time). */
function rateLimitedRows(c: Comparison, perSecond: number): Row[] {
	const both = ofSide(c, 'node-both-ends');
	const rates = both.map((m) => m.calls / (m.wallMs / 1000));
	const items = both.map((m) => m.items);
	return [
		[
			`${c.title}: from both ends, items / rate (calls per second of wall time)`,
			`${unique(items)} / ${median(rates).toFixed(1)} (rounds ${Math.min(...rates).toFixed(1)}–${Math.max(...rates).toFixed(1)})`,
			`${c.expectedItems} / ≥ ${(0.9 * perSecond).toFixed(0)}`,
			items.every((n) => n === c.expectedItems) && median(rates) >= 0.9 * perSecond,
		],
	];
}

function traversalSummaryRows(
	{ main, slowMain, limit, scaling, rateLimited, ignoredSort }: Traversals,
	ratePerSecond: number,
): Row[] {
	const nodeCalls = [...ofSide(main, 'node'), ...ofSide(slowMain, 'node')].map((m) => m.calls);
	const limitCalls = ofSide(limit, 'node').map((m) => m.calls);
	const g = perTicketGrowth(scaling);
	return [
		...[main, slowMain].flatMap((c): Row[] => {
			const overHttp = roundRatios(c, wall, 'n8n-http');
			const bothEnds = roundRatios(c, wall, 'n8n-http', 'node-both-ends');
			const bothEndsCalls = ofSide(c, 'node-both-ends').map((m) => m.calls);
			return [
				...(bothEnds.length === 0
					? []
					: ([
							[
								`${c.title}: wall time node from both ends ÷ n8n's HTTP helper alone (one chain)`,
								spread(bothEnds),
								`≤ ${TARGETS.bothEndsOverN8nHttp}`,
								median(bothEnds) <= TARGETS.bothEndsOverN8nHttp,
							],
							[
								`${c.title}: main thread busy ÷ wall time, n8n's HTTP helper alone: no reading order on one thread goes below it`,
								spread(ofSide(c, 'n8n-http').map((m) => ratio(m.busyMs, m.wallMs))),
								'for reference',
							],
							[
								`${c.title}: calls from both ends (every round)`,
								unique(bothEndsCalls),
								`≤ ${c.expectedCalls + 2}`,
								bothEndsCalls.every((n) => n <= c.expectedCalls + 2),
							],
						] as Row[])),
				[
					`${c.title}: wall time node ÷ n8n's HTTP helper alone`,
					spread(overHttp),
					`≤ ${TARGETS.overN8nHttp}`,
					median(overHttp) <= TARGETS.overN8nHttp,
				],
				[
					`${c.title}: wall time node ÷ raw undici (reference)`,
					spread(roundRatios(c, wall, 'raw')),
					'',
				],
			];
		}),
		[
			`Return All ${count(main.tickets)}: calls (node, every round, 0 and 5 ms)`,
			unique(nodeCalls),
			`exactly ${main.expectedCalls}`,
			nodeCalls.every((c) => c === main.expectedCalls),
		],
		[
			`Limit ${limit.limit}: calls (node, every round)`,
			unique(limitCalls),
			`exactly ${limit.expectedCalls}`,
			limitCalls.every((c) => c === limit.expectedCalls),
		],
		[
			`node: CPU time per ticket, 100k ÷ 10k (wall: ${f2(g.wall)})`,
			f2(g.cpu),
			`≤ ${TARGETS.perTicketGrowth} (flat)`,
			g.cpu <= TARGETS.perTicketGrowth,
		],
		[
			'node: retained heap per ticket, 100k ÷ 10k',
			f2(g.memory),
			`≤ ${TARGETS.perTicketGrowth} (flat)`,
			g.memory <= TARGETS.perTicketGrowth,
		],
		...(rateLimited ? rateLimitedRows(rateLimited, ratePerSecond) : []),
		...(ignoredSort ? ignoredSortRows(ignoredSort) : []),
	];
}

function realN8nSummaryRows(figures: RealN8nFigures): Row[] {
	const { perPage, readsPerPage } = realN8nPerPage(figures);
	const real = `Return All ${count(figures.tickets)} through real n8n ${figures.version} (\`n8n execute\`)`;
	return [
		[`${real}: time per page`, `${f1(perPage)} ms`, 'for reference'],
		[`${real}: credential reads from the database per page`, f2(readsPerPage), 'for reference'],
	];
}

function signingSummaryRows(signing: MicroResult[]): Row[] {
	const microUs = (name: string): number =>
		signing.find((r) => r.name.includes(name))?.medianUs ?? Number.NaN;
	const [verify1k, sign] = [microUs('1 KB body: verify'), microUs('as the credential does')];
	return [
		['signing one request (signRequestOptions)', `${f2(sign)} µs`, ''],
		[
			'verifying one webhook delivery, 1 KB body',
			`${f2(verify1k)} µs`,
			`< ${TARGETS.verify1kUs} µs`,
			verify1k < TARGETS.verify1kUs,
		],
	];
}

/** A failed section's one line (the whole reason is in its own section). */
const firstLine = (text: string): string => text.split('\n')[0].slice(0, 160).replace(/\|/g, '/');

export function summaryTable(results: BenchResults): string {
	const rows: Row[] = [
		...itemSummaryRows(results),
		...(results.traversals ? traversalSummaryRows(results.traversals, results.ratePerSecond) : []),
		...(results.realN8n ? realN8nSummaryRows(results.realN8n) : []),
		...(results.signing ? signingSummaryRows(results.signing) : []),
		...results.failures.map(
			({ section, reason }): Row => [
				`${section}: **failed**`,
				firstLine(reason),
				'no figures',
				false,
			],
		),
		...results.pending.map((section): Row => [`${section}`, 'not run yet', '']),
	];
	return table(
		['figure', 'measured', 'target', ''],
		rows.map(([figure, measured, target, met]) => [
			figure,
			measured,
			target,
			met === undefined ? '' : verdict(met),
		]),
		['---', '---:', '---:', '---'],
	);
}

export function itemsTables(c: ItemComparison): string {
	const create = c.operation === 'create';
	const row = (m: ItemMeasurement): string[] => [
		String(m.round),
		m.side,
		f0(m.wallMs),
		f0(m.cpuMs),
		String(m.outputItems),
		String(m.errorItems),
		String(m.lost),
		create ? String(m.created) : '',
		create ? String(m.duplicates) : '',
		String(m.succeeded),
		String(m.refused),
		f1(m.ratePerSecond),
		m.runError ? m.runError.slice(0, 80).replace(/\|/g, '/') : '',
	];
	const header = [
		'round',
		'side',
		'wall ms',
		'client CPU ms',
		'output items',
		'error items',
		'lost',
		'created',
		'duplicated',
		'2xx',
		'429',
		'rate req/s',
		'run error',
	];
	return `### ${itemLabel(c)}: sandbox faults \`${JSON.stringify(c.faults)}\`, ${c.rounds} round(s)\n\n${table(
		header,
		c.measurements.map(row),
		header.map((_, i) => (i < 2 || i === 12 ? '---' : '---:')),
	)}`;
}

function roundsTable(c: Comparison): string {
	const header = [
		'round',
		'side',
		'wall ms',
		'client CPU ms',
		'peak RSS MiB',
		'RSS before MiB',
		'retained heap MiB',
		'calls',
		'sandbox ms',
	];
	return table(
		header,
		c.measurements.map((m) => [
			String(m.round),
			m.side,
			f0(m.wallMs),
			f0(m.cpuMs),
			peak(m),
			mib(m.rssBeforeBytes),
			mib(retained(m)),
			String(m.calls),
			f0(m.sandboxMs),
		]),
	);
}

function scalingTable(scaling: Comparison[]): string {
	const rows = scaling.flatMap((c) =>
		(['raw', 'node'] as Side[]).map((side) => {
			const perTicket = (figure: (m: Measurement) => number): number =>
				medianOf(c, side, figure) / c.tickets;
			return [
				count(c.tickets),
				side,
				String(ofSide(c, side).length),
				f0(medianOf(c, side, wall)),
				f2(perTicket(wall) * 1000),
				f2(perTicket(cpu) * 1000),
				f0(perTicket(growth)),
				f0(perTicket(retained)),
				mib(medianOf(c, side, (m) => m.maxRssBytes)),
				side === 'node' ? f2(median(roundRatios(c, wall, 'raw'))) : '',
			];
		}),
	);
	return table(
		[
			'tickets',
			'side',
			'rounds',
			'wall ms',
			'wall µs / ticket',
			'CPU µs / ticket',
			'RSS growth B / ticket',
			'retained heap B / ticket',
			'peak RSS MiB',
			'wall node ÷ raw',
		],
		rows,
	);
}

/** A section's body: its figures, why it failed, or that it has not run yet. */
function sectionBody<T>(
	results: BenchResults,
	section: BenchSection,
	figures: T | undefined,
	render: (figures: T) => string,
): string {
	if (figures !== undefined) return render(figures);
	const failure = results.failures.find((f) => f.section === section);
	if (failure)
		return `**${section} failed; no figures.** Why:\n\n\`\`\`\n${failure.reason.trim()}\n\`\`\``;
	return `*${section}: not run yet (the file is rewritten as each section ends).*`;
}

function realN8nSection(figures: RealN8nFigures): string {
	const { extraPages, perPage, readsPerPage } = realN8nPerPage(figures);
	const row = (name: string, r: RealN8nRun): string[] => [
		name,
		String(r.pages),
		String(r.items),
		f0(r.nodeMs),
		String(r.credentialReads),
		f1(r.processMs / 1000),
	];
	return [
		`n8n ${figures.version}, ${count(figures.tickets)} tickets.`,
		`This package \`npm pack\`ed and installed as a community package in the e2e's n8n install (SQLite, \`DB_LOGGING_OPTIONS=query\`), each workflow run by \`n8n execute\` twice: timed without the query log (node time is n8n's own \`executionTime\`), then counted with it (SELECTs of the credential's data on \`credentials_entity\`). Per page = (Return All − Limit 100) ÷ ${extraPages} extra pages.`,
		table(
			['run', 'pages', 'items', 'node ms', 'credential reads', 'process s'],
			[row('Limit 100', figures.one), row('Return All', figures.all)],
		),
		`Per page: ${f2(perPage)} ms, ${f2(readsPerPage)} credential reads from the database.`,
	].join('\n\n');
}

export function renderResults(results: BenchResults): string {
	const { run, rounds, traversals } = results;
	const sides: Side[] = ['raw', 'n8n-http', 'node', 'node-both-ends'];
	const itemSides = [...new Set((results.items ?? []).flatMap((c) => c.sides))];
	const analysisFile = repoPath('bench', 'analysis.md');
	const how = [
		`- **Machine:** ${run.machine}`,
		`- **Load average** (1/5/15 min) before: ${run.loadBefore}; after: ${run.loadAfter}. The machine is shared, so absolute times move from run to run: read the **ratios**, from sides run back to back in the same round (same sandbox process, fresh child processes, order rotated every round, all sizes interleaved round by round). Client CPU time moves less than wall time when the machine is busy.`,
		'- **Processes:** the sandbox (`build/sandbox/cli.js`) runs in a process of its own; every measurement runs in a fresh child (`bench/child.tsx`, `node --expose-gc`) that loads its side, warms up with 20 Limit 250 traversals, runs a full GC and times exactly one traversal. Peak RSS is the child\'s `process.resourceUsage().maxRSS`; "RSS growth" is peak RSS minus the RSS just before the timed traversal; "retained heap" is `heapUsed` after it and a full GC, minus before, all items still held. Calls come from the sandbox\'s own request log (cleared after the warm-up); "sandbox ms" sums its time per request.',
		`- **Sides:** ${sides.map((side) => `\`${side}\` = ${SIDE_MEANING[side]}`).join('; ')}. The target is \`node\` ÷ \`n8n-http\` (the limit reachable inside n8n).`,
		`- **Command:** \`npm run bench\` (= \`n8n-node build\`, \`tsc -p tsconfig.tools.json\`, \`node build/bench/run.js\`, ${rounds} rounds).`,
	];
	const itemsIntro = `Sides: ${itemSides.map((side) => `\`${side}\` = ${itemSideMeaning(side)}`).join('; ')}.\nEach measurement is a fresh child that runs one workflow (a node that emits N items → the side) through WorkflowExecute; it warms up with a 20-item run on an idle sandbox, then switches the scenario's latency / rate limit on itself (through the sandbox's admin surface) and times the N-item run. From the sandbox's log: "created" = distinct subjects of this run answered 201, "duplicated" = subjects created more than once, "lost" = input items without a successful output item (all of them when the run failed), "rate" = requests answered 2xx per second of wall time.`;
	const signingTable = (signing: MicroResult[]): string =>
		table(
			['operation', 'median µs / call', 'fastest round', 'slowest round', 'calls × rounds'],
			signing.map((r) => [
				r.name,
				f2(r.medianUs),
				f2(r.minUs),
				f2(r.maxUs),
				`${count(r.callsPerRound)} × ${r.rounds}`,
			]),
		);
	const complete = results.failures.length === 0 && results.pending.length === 0;
	const traversalTables = ({
		main,
		slowMain,
		limit,
		scaling,
		rateLimited,
		ignoredSort,
	}: Traversals): string =>
		[
			`### Return All of ${count(main.tickets)} tickets, per_page 100, ${rounds} rounds`,
			'Every round (a `*` on peak RSS: the peak was reached before the timed traversal, while loading or warming up):',
			roundsTable(main),
			`### ${slowMain.title} service latency per request, ${rounds} rounds`,
			roundsTable(slowMain),
			`### Limit ${limit.limit} (${limit.expectedCalls} calls), ${rounds} rounds`,
			roundsTable(limit),
			'### How cost grows: 1k, 10k, 100k tickets',
			"Medians per size (every size ran in every round). Per-ticket figures at 1k carry the fixed cost of a run, so flatness is read from 10k to 100k, on CPU time and retained heap (wall time follows the machine's load; at 1k and 10k the peak RSS is mostly V8 sizing its heap).",
			scalingTable(scaling),
			...(rateLimited ? [`### ${rateLimited.title}`, roundsTable(rateLimited)] : []),
			...(ignoredSort
				? [`### ${ignoredSort.title} (the sandbox's \`--sort none\`)`, roundsTable(ignoredSort)]
				: []),
		].join('\n\n');
	return `${[
		'# Benchmarks: what a user waits for',
		writtenBy(run, '\n(the analysis at the end is kept by hand in `bench/analysis.md`).'),
		results.violations.length > 0
			? `**Violations:**\n\n${results.violations.map((v) => `- ${v}`).join('\n')}`
			: complete
				? 'Every measured traversal returned every ticket in exactly the expected number of calls; this node lost no item and duplicated no create.'
				: 'No violation in the sections that ran; see the Summary for the sections that failed or have not run.',
		'## Summary',
		summaryTable(results),
		'## How this was measured',
		how.join('\n'),
		'## Per-item operations: what a user waits for',
		sectionBody(results, 'Per-item operations', results.items, (items) =>
			[itemsIntro, ...items.map(itemsTables)].join('\n\n'),
		),
		'## Creates when answers are lost (bench/createRecovery.tsx)',
		sectionBody(results, 'Creates when answers are lost', results.createRecovery, (markdown) =>
			markdown.replace(/^## .*\n+/, ''),
		),
		'## Return All and Limit',
		sectionBody(results, 'Return All and Limit', traversals, traversalTables),
		'## Return All through real n8n (`n8n execute`)',
		sectionBody(results, 'Real n8n', results.realN8n, realN8nSection),
		'## Signing and webhook verification (nodes/shared/signing/signature.ts, signRequestOptions.ts)',
		sectionBody(
			results,
			'Signing and verification',
			results.signing,
			(signing) =>
				`In the bench process, after all child processes ended: 200 ms warm-up per operation, then rounds of about 60 ms each.\n\n${signingTable(signing)}`,
		),
		existsSync(analysisFile) ? readFileSync(analysisFile, 'utf8').trim() : '',
		memorySection(repoPath('bench', 'memory-results.md')),
	].join('\n\n')}\n`;
}

// ---- bench/memory-results.md, and its summary inside results.md ----

export type MemoryResults = {
	run: RunFacts;
	heapCapMiB: number;
	measurements: ImportMeasurement[];
	failures: string[];
};

/** What "a page per execution keeps memory flat" means in figures: heap retained per ticket at the largest size; capped peak RSS, largest ÷ smallest size. */
export const MEMORY_TARGETS = { retainedBytesPerTicket: 16, cappedPeakRatio: 1.25 };

export const SUMMARY_START = '<!-- memory-summary:start -->';
export const SUMMARY_END = '<!-- memory-summary:end -->';
const SECTION_START = '<!-- memory:start -->';
const SECTION_END = '<!-- memory:end -->';

const MODE_MEANING: Record<ImportMode, string> = {
	'page-per-execution':
		'one page per execution, the cursor carried to the next execution (sub-workflow alone, or a scheduled run resuming from a saved cursor)',
	'sub-workflow-per-page':
		'a parent workflow loops with an If node and calls the one-page sub-workflow per page (Execute Workflow); the sub-workflow hands back only the cursor',
	'loop-in-one-execution':
		'test/e2e/workflows/import-page-by-page.json (the If loop): Get Page → Split Out → Write Page, the If node loops back inside one execution',
	'return-all': 'examples/import-all-tickets.json (Return All) followed by the same Write step',
};

const modeLabel = (m: ImportMeasurement): string =>
	`${m.mode}${m.heapCapMiB === undefined ? '' : `, --max-old-space-size=${m.heapCapMiB}`}`;
const sizesOf = (r: MemoryResults): number[] =>
	[...new Set(r.measurements.map((m) => m.tickets))].sort((a, b) => a - b);
const find = (
	r: MemoryResults,
	mode: ImportMode,
	tickets: number,
	heapCapMiB?: number,
): ImportMeasurement | undefined =>
	r.measurements.find(
		(m) => m.mode === mode && m.tickets === tickets && m.heapCapMiB === heapCapMiB,
	);

/** Page per execution against the issue's "Done when". */
function targetsTable(r: MemoryResults): string {
	const sizes = sizesOf(r);
	const [smallest, largest] = [sizes[0], sizes[sizes.length - 1]];
	const page = (tickets: number, cap?: number) => find(r, 'page-per-execution', tickets, cap);
	const cells = (value: (m: ImportMeasurement) => string, cap?: number): string[] =>
		sizes.map((n) => page(n, cap)).map((m) => (m ? value(m) : '–'));
	const perTicket = (m: ImportMeasurement | undefined): number =>
		m ? m.maxRssBytes / m.tickets : Number.NaN;
	const all = r.measurements.filter((m) => m.mode === 'page-per-execution');
	const pages = (m: ImportMeasurement): number => Math.ceil(m.tickets / 100);
	const onceEach =
		all.length > 0 &&
		all.every(
			(m) =>
				m.written === m.tickets &&
				m.distinct === m.tickets &&
				m.duplicates === 0 &&
				m.unknown === 0,
		);
	const callsOk =
		all.length > 0 &&
		all.every((m) => m.calls === pages(m) && m.executions === pages(m) && m.requests === pages(m));
	const large = page(largest);
	const retainedPerTicket = large ? retained(large) / large.tickets : Number.NaN;
	const [smallCapped, largeCapped] = [page(smallest, r.heapCapMiB), page(largest, r.heapCapMiB)];
	const cappedRatio =
		smallCapped && largeCapped ? largeCapped.maxRssBytes / smallCapped.maxRssBytes : Number.NaN;
	const cap = r.heapCapMiB;
	return table(
		['page per execution', ...sizes.map(count), 'target', ''],
		[
			[
				'tickets written (distinct; duplicates, unknown)',
				...cells((m) => `${count(m.distinct)} (${m.duplicates}, ${m.unknown})`),
				'every ticket exactly once',
				verdict(onceEach),
			],
			[
				'list calls / executions',
				...cells((m) => `${count(m.calls)} / ${count(m.executions)}`),
				'⌈n/100⌉ each',
				verdict(callsOk),
			],
			['peak RSS, MiB', ...cells((m) => mib(m.maxRssBytes)), '', ''],
			[
				'peak RSS per ticket, KiB',
				...cells((m) => f2(m.maxRssBytes / m.tickets / 1024)),
				`does not grow, ${count(largest)} ÷ ${count(smallest)} ≤ 1`,
				verdict(perTicket(large) <= perTicket(page(smallest))),
			],
			[
				`peak RSS with V8's old space capped at ${cap} MiB (\`--max-old-space-size=${cap}\`), MiB`,
				...cells((m) => mib(m.maxRssBytes), cap),
				`${count(largest)} ÷ ${count(smallest)} ≤ ${MEMORY_TARGETS.cappedPeakRatio} (ratio ${f2(cappedRatio)})`,
				verdict(cappedRatio <= MEMORY_TARGETS.cappedPeakRatio),
			],
			[
				'heap retained after the import and a full GC, MiB',
				...cells((m) => mib(retained(m))),
				`< ${MEMORY_TARGETS.retainedBytesPerTicket} B per ticket at ${count(largest)} (${f1(retainedPerTicket)} B)`,
				verdict(retainedPerTicket < MEMORY_TARGETS.retainedBytesPerTicket),
			],
		],
		['---', ...sizes.map(() => '---:'), '---:', '---'],
	);
}

function comparisonTable(r: MemoryResults): string {
	const sizes = sizesOf(r);
	const rows = IMPORT_MODES.map((mode) => {
		const measured = sizes.map((n) => find(r, mode, n));
		const last = measured.filter((m) => m !== undefined).pop();
		return [
			mode,
			...measured.map((m) => (m ? `${mib(m.maxRssBytes)} / ${mib(retained(m))}` : 'not run')),
			last ? `${f0(retained(last) / last.tickets)} B` : '',
		];
	});
	return table(
		[
			'peak RSS MiB / heap retained MiB',
			...sizes.map(count),
			'retained per ticket at the largest size',
		],
		rows,
	);
}

export function renderMemoryResults(r: MemoryResults): string {
	const measurementRows = r.measurements.map((m) => [
		modeLabel(m),
		count(m.tickets),
		peak(m),
		mib(m.rssBeforeBytes),
		mib(growth(m)),
		mib(retained(m)),
		count(m.executions),
		count(m.calls),
		f1(m.wallMs / 1000),
		f1(m.cpuMs / 1000),
		f1(m.runDataBytes / MIB),
	]);
	return `${[
		'# Memory of large imports: page by page against one execution',
		`${writtenBy(r.run, '.')}\nIssue 7, item 1: "Memory stays flat as the account grows: measure peak RSS for 10k, 100k and 1M sandbox tickets (in-process engine)".`,
		r.failures.length === 0
			? 'Every import wrote every seeded ticket exactly once, in exactly ⌈n/100⌉ list calls.'
			: `**Failures:**\n\n${r.failures.map((f) => `- ${f}`).join('\n')}`,
		'## Summary',
		`${SUMMARY_START}\n${targetsTable(r)}`,
		'Every way of importing, peak RSS / heap retained after the import and a full GC (MiB; for the three last rows that is the data n8n holds for the one execution until it ends):',
		`${comparisonTable(r)}\n${SUMMARY_END}`,
		'Which way to import when, with these figures: [Large accounts](../docs/large-accounts.md).',
		'## The four ways',
		IMPORT_MODES.map((mode) => `- \`${mode}\`: ${MODE_MEANING[mode]}.`).join('\n'),
		'All four write to the same place: "Write Page" (n8n\'s No Operation node), replaced by a stand-in that passes the items on and ticks each ticket off in a bitmap (n/8 bytes), so "written exactly once" is counted without holding the tickets. The one-page sub-workflow is the example without the If node, started by an Execute Workflow Trigger with `{ next_cursor }` and ending with a Code node that returns `{ has_more, next_cursor }`; the Execute Workflow stand-in runs it as a separate execution in the same process and returns its last node\'s output.',
		'## Every measurement',
		'"last execution data as JSON" sums `JSON.stringify` of each node run of the last execution: an upper bound of what n8n saves for it. A `*` on peak RSS: the peak was reached while loading or warming up.',
		table(
			[
				'mode',
				'tickets',
				'peak RSS MiB',
				'RSS before MiB',
				'RSS growth MiB',
				'retained heap MiB',
				'executions',
				'calls',
				'wall s',
				'CPU s',
				'last execution data as JSON, MiB',
			],
			measurementRows,
		),
		'## How this was measured',
		[
			`- **Machine:** ${r.run.machine}`,
			`- **Load average** (1/5/15 min) before: ${r.run.loadBefore}; after: ${r.run.loadAfter} (a shared machine: times move from run to run; memory figures much less).`,
			"- **Processes:** the sandbox (`build/sandbox/cli.js --seed n`) runs in a process of its own; every measurement runs in a fresh child (`bench/child.tsx`, `node --expose-gc`, plus `--max-old-space-size` for the capped row) that loads the harness (n8n-core's WorkflowExecute, the package from dist/), warms up with 20 one-page executions, runs a full GC and imports every ticket once. Peak RSS is the child's `process.resourceUsage().maxRSS`; \"retained heap\" is `heapUsed` after the import and a full GC minus before, the last execution's data still held. Calls come from the sandbox's request log. Executions run in `manual` mode, the sub-workflow's in `integrated` mode.",
			'- **Not measured here:** a real n8n process carries far more (its server, database, all built-in nodes), and saves each execution at its end.',
			`- **Command:** \`${r.run.command}\` (= \`n8n-node build\`, \`tsc -p tsconfig.tools.json\`, \`node build/bench/run.js --memory\`). Options: \`--sizes 10000,100000,1000000\`, \`--loop-max 1000000\` and \`--return-all-max 100000\` (largest size for those modes), \`--out FILE\`, \`--no-results-md\` (leave bench/results.md alone).`,
		].join('\n'),
	].join('\n\n')}\n`;
}

/** The memory section for results.md: the summary of memory-results.md and a link to it; '' before bench --memory has run. */
export function memorySection(memoryResultsFile: string): string {
	if (!existsSync(memoryResultsFile)) return '';
	const text = readFileSync(memoryResultsFile, 'utf8');
	const [start, end] = [text.indexOf(SUMMARY_START), text.indexOf(SUMMARY_END)];
	if (start === -1 || end < start) return '';
	const by = (/^Written by .*$/m.exec(text)?.[0] ?? '').replace(/ Re-run it.*$/, '');
	const summary = text.slice(start + SUMMARY_START.length, end).trim();
	return [
		SECTION_START,
		'## Memory of large imports: page by page (bench/memory-results.md)',
		'',
		`${by} The method, every measurement and which way to import when: [memory-results.md](memory-results.md).`,
		'',
		summary,
		SECTION_END,
	].join('\n');
}

/** Replaces the memory section of results.md, or appends it. */
export function upsertMemorySection(resultsFile: string, memoryResultsFile: string): void {
	const section = memorySection(memoryResultsFile);
	const text = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '';
	const [start, end] = [text.indexOf(SECTION_START), text.indexOf(SECTION_END)];
	writeFileSync(
		resultsFile,
		start !== -1 && end > start
			? `${text.slice(0, start)}${section}${text.slice(end + SECTION_END.length)}`
			: `${text.trimEnd()}\n\n${section}\n`,
	);
}
