/** Renders the figures of one `npm run bench:memory` as bench/memory-results.md. */
import type { ImportMeasurement } from './forkImport';
import type { ImportMode } from './importWorkflows';
import type { MachineFacts } from './machineFacts';
import { SUMMARY_END, SUMMARY_START } from './memorySection';
import type { SandboxFigures } from './pageMemory';

export interface MemoryResults {
	startedAt: Date;
	durationSeconds: number;
	command: string;
	facts: MachineFacts;
	loadBefore: string;
	loadAfter: string;
	heapCapMiB: number;
	sandboxes: SandboxFigures[];
	measurements: ImportMeasurement[];
	failures: string[];
}

/** "Done when" of issue 7 item 1, and what "flat" means here. */
export const MEMORY_TARGETS = {
	/** Heap still held after the whole import and a full GC, per ticket of the largest size. */
	retainedBytesPerTicket: 16,
	/** Peak RSS with the heap capped: largest size ÷ smallest size. */
	cappedPeakRatio: 1.25,
};

const MIB = 2 ** 20;
const f0 = (n: number): string => (Number.isFinite(n) ? String(Math.round(n) || 0) : '–'); // never "-0"
const f1 = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : '–');
const f2 = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : '–');
const mib = (bytes: number): string => f0(bytes / MIB);
const count = (n: number): string => n.toLocaleString('en');
const verdict = (ok: boolean): string => (ok ? 'met' : '**not met**');

export const MODE_MEANING: Record<ImportMode, string> = {
	'page-per-execution': 'one page per execution, the cursor carried to the next execution (sub-workflow alone, or a scheduled run resuming from a saved cursor)',
	'sub-workflow-per-page': 'a parent workflow loops with an If node and calls the one-page sub-workflow per page (Execute Workflow); the sub-workflow hands back only the cursor',
	'loop-in-one-execution': 'test/e2e/workflows/import-page-by-page.json (the If loop): Get Page → Split Out → Write Page, the If node loops back inside one execution',
	'return-all': 'examples/import-all-tickets.json (Return All) followed by the same Write step',
};

const retained = (m: ImportMeasurement): number => m.heapAfterBytes - m.heapBeforeBytes;
const growth = (m: ImportMeasurement): number => m.maxRssBytes - m.rssBeforeBytes;
const label = (m: { mode: ImportMode; heapCapMiB?: number }): string => `${m.mode}${m.heapCapMiB === undefined ? '' : `, --max-old-space-size=${m.heapCapMiB}`}`;

function table(header: string[], rows: string[][], align: string[] = header.map((_, i) => (i === 0 ? '---' : '---:'))): string {
	return [`| ${header.join(' | ')} |`, `|${align.join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

function find(results: MemoryResults, mode: ImportMode, tickets: number, heapCapMiB?: number): ImportMeasurement | undefined {
	return results.measurements.find((m) => m.mode === mode && m.tickets === tickets && m.heapCapMiB === heapCapMiB);
}

function sizesOf(results: MemoryResults): number[] {
	return [...new Set(results.measurements.map((m) => m.tickets))].sort((a, b) => a - b);
}

/** The page-per-execution figures against the issue's "Done when". */
function targetsTable(results: MemoryResults): string {
	const sizes = sizesOf(results);
	const page = (tickets: number, heapCapMiB?: number) => find(results, 'page-per-execution', tickets, heapCapMiB);
	const cells = (value: (m: ImportMeasurement) => string, heapCapMiB?: number): string[] =>
		sizes.map((n) => {
			const m = page(n, heapCapMiB);
			return m ? value(m) : '–';
		});
	const [smallest, largest] = [sizes[0], sizes[sizes.length - 1]];
	const small = page(smallest);
	const large = page(largest);
	const smallCapped = page(smallest, results.heapCapMiB);
	const largeCapped = page(largest, results.heapCapMiB);
	const perTicket = (m: ImportMeasurement | undefined): number => (m ? m.maxRssBytes / m.tickets : Number.NaN);
	const all = results.measurements.filter((m) => m.mode === 'page-per-execution');
	const pages = (m: ImportMeasurement): number => Math.ceil(m.tickets / 100);
	const onceEach = all.length > 0 && all.every((m) => m.written === m.tickets && m.distinct === m.tickets && m.duplicates === 0 && m.unknown === 0);
	const callsOk = all.length > 0 && all.every((m) => m.calls === pages(m) && m.executions === pages(m) && m.requests === pages(m));
	const retainedPerTicket = large ? retained(large) / large.tickets : Number.NaN;
	const cappedRatio = smallCapped && largeCapped ? largeCapped.maxRssBytes / smallCapped.maxRssBytes : Number.NaN;
	return table(
		['page per execution', ...sizes.map(count), 'target', ''],
		[
			['tickets written (distinct; duplicates, unknown)', ...cells((m) => `${count(m.distinct)} (${m.duplicates}, ${m.unknown})`), 'every ticket exactly once', verdict(onceEach)],
			['list calls / executions', ...cells((m) => `${count(m.calls)} / ${count(m.executions)}`), '⌈n/100⌉ each', verdict(callsOk)],
			['peak RSS, MiB', ...cells((m) => mib(m.maxRssBytes)), '', ''],
			['peak RSS per ticket, KiB', ...cells((m) => f2(m.maxRssBytes / m.tickets / 1024)), `does not grow, ${count(largest)} ÷ ${count(smallest)} ≤ 1`, verdict(perTicket(large) <= perTicket(small))],
			[`peak RSS with V8's old space capped at ${results.heapCapMiB} MiB (\`--max-old-space-size=${results.heapCapMiB}\`), MiB`, ...cells((m) => mib(m.maxRssBytes), results.heapCapMiB), `${count(largest)} ÷ ${count(smallest)} ≤ ${MEMORY_TARGETS.cappedPeakRatio} (ratio ${f2(cappedRatio)})`, verdict(cappedRatio <= MEMORY_TARGETS.cappedPeakRatio)],
			['heap retained after the import and a full GC, MiB', ...cells((m) => mib(retained(m))), `< ${MEMORY_TARGETS.retainedBytesPerTicket} B per ticket at ${count(largest)} (${f1(retainedPerTicket)} B)`, verdict(retainedPerTicket < MEMORY_TARGETS.retainedBytesPerTicket)],
		],
		['---', ...sizes.map(() => '---:'), '---:', '---'],
	);
}

/** Peak RSS and retained heap of every mode at every size: the comparison users act on. */
function comparisonTable(results: MemoryResults): string {
	const sizes = sizesOf(results);
	const modes: ImportMode[] = ['page-per-execution', 'sub-workflow-per-page', 'loop-in-one-execution', 'return-all'];
	return table(
		['peak RSS MiB / heap retained MiB', ...sizes.map(count), 'retained per ticket at the largest size'],
		modes.map((mode) => {
			const measured = sizes.map((n) => find(results, mode, n));
			const last = [...measured].reverse().find((m) => m !== undefined);
			return [mode, ...measured.map((m) => (m ? `${mib(m.maxRssBytes)} / ${mib(retained(m))}` : 'not run')), last ? `${f0(retained(last) / last.tickets)} B` : ''];
		}),
	);
}

function measurementsTable(results: MemoryResults): string {
	return table(
		['mode', 'tickets', 'peak RSS MiB', 'RSS before MiB', 'RSS growth MiB', 'retained heap MiB', 'half-way MiB', 'retained B / ticket, 2nd half', 'executions', 'calls', 'wall s', 'CPU s', 'last execution data as JSON, MiB'],
		results.measurements.map((m) => [
			label(m),
			count(m.tickets),
			`${mib(m.maxRssBytes)}${m.maxRssBeforeBytes >= m.maxRssBytes ? '*' : ''}`,
			mib(m.rssBeforeBytes),
			mib(growth(m)),
			mib(retained(m)),
			// Return All's writer gets every ticket at once: its half-way sample is taken at the end.
			m.mode === 'return-all' ? '–' : mib(m.heapHalfBytes - m.heapBeforeBytes),
			m.mode === 'return-all' ? '–' : f0((m.heapAfterBytes - m.heapHalfBytes) / (m.tickets / 2)),
			count(m.executions),
			count(m.calls),
			f1(m.wallMs / 1000),
			f1(m.cpuMs / 1000),
			f1(m.runDataBytes / MIB),
		]),
	);
}

function progressTable(results: MemoryResults): string {
	const largest = Math.max(...results.measurements.map((m) => m.tickets));
	const runs = results.measurements.filter((m) => m.tickets === largest);
	const tenths = Array.from({ length: 10 }, (_, i) => `${(i + 1) * 10} %`);
	return table(
		[`${count(largest)} tickets: peak RSS MiB so far, after`, ...tenths],
		runs.map((m) => [label(m), ...tenths.map((_, i) => (m.progress[i] ? mib(m.progress[i].maxRssBytes) : '–'))]),
	);
}

function sandboxTable(results: MemoryResults): string {
	return table(
		['sandbox tickets', 'seeded and ready, s', 'sandbox peak RSS MiB'],
		results.sandboxes.map((s) => [count(s.tickets), f1(s.readyMs / 1000), mib(s.peakRssBytes)]),
	);
}

/** The plain-language advice, with this run's figures in it. */
function conclusion(results: MemoryResults): string {
	const sizes = sizesOf(results);
	const largest = sizes[sizes.length - 1];
	const page = find(results, 'page-per-execution', largest);
	const capped = find(results, 'page-per-execution', largest, results.heapCapMiB);
	const sub = find(results, 'sub-workflow-per-page', largest);
	const loops = results.measurements.filter((m) => m.mode === 'loop-in-one-execution');
	const loop = loops[loops.length - 1];
	const alls = results.measurements.filter((m) => m.mode === 'return-all');
	const all = alls[alls.length - 1];
	const perTicket = (m: ImportMeasurement | undefined): string => (m ? `${f0(retained(m) / m.tickets)} bytes per ticket` : '–');
	const lines = [
		`- **Up to about 100,000 tickets, Return All is fine** (so is the page loop in one execution): n8n holds every ticket until the execution ends, ${perTicket(all)} with Return All here${all ? ` (${mib(retained(all))} MiB at ${count(all.tickets)})` : ''}, on top of n8n's own memory, and writes it all to its database when the execution is saved.`,
		`- **Beyond that, or in a container with little memory, run one page per execution** (Pagination *One Page per Run*): a parent workflow that calls a sub-workflow per page (Execute Workflow), or a scheduled workflow that saves \`next_cursor\` (workflow static data or a data store) and reads the next page on its next run. Each execution holds one page, so memory does not grow with the account${page ? `: ${count(page.tickets)} tickets went through with ${mib(retained(page))} MiB of heap left after the import; the peak of ${mib(page.maxRssBytes)} MiB stops rising after the first few thousand pages (table below) and is mostly V8 leaving old pages' garbage uncollected while it has room` : ''}${capped ? ` (with V8's old space capped at ${capped.heapCapMiB} MiB the same import peaked at ${mib(capped.maxRssBytes)} MiB; how far the uncapped peak rises depends on the heap limit V8 picks from the machine's memory)` : ''}.`,
		`- **End the sub-workflow with a node that returns only \`has_more\` and \`next_cursor\`.** n8n hands the caller the output of the sub-workflow's last node, and the parent's loop keeps what every call handed back until it ends: the cursor alone costs ${sub ? `about ${f1(retained(sub) / Math.ceil(sub.tickets / 100) / 1024)} KiB per page (${mib(retained(sub))} MiB for ${count(sub.tickets)} tickets)` : 'a few KiB per page'}; ending with the tickets would make the parent keep them all, like the loop in one execution. For no growth at all, let a schedule carry the cursor instead of a parent.`,
		`- **The loop in one execution (test/e2e/workflows/import-page-by-page.json) does not bound memory:** each page is written before the next is fetched, but n8n keeps every node run's output until the execution ends, ${perTicket(loop)}${loop ? ` (${mib(retained(loop))} MiB of heap, ${mib(loop.maxRssBytes)} MiB peak RSS at ${count(loop.tickets)}; up to ${f0(loop.runDataBytes / MIB)} MiB of execution data to save)` : ''}. Use it where Return All would do as well, or to try the loop before moving its body into a sub-workflow.`,
	];
	return lines.join('\n');
}

export function renderMemoryResults(results: MemoryResults): string {
	const { facts } = results;
	const sizes = sizesOf(results);
	return [
		'# Memory of large imports: page by page against one execution',
		'',
		`Written by \`${results.command}\` on ${results.startedAt.toISOString()} in ${f0(results.durationSeconds)} s. Re-run it to refresh every figure below.`,
		'Issue 7, item 1: "Memory stays flat as the account grows: measure peak RSS for 10k, 100k and 1M sandbox tickets (in-process engine)".',
		'',
		results.failures.length === 0
			? 'Every import wrote every seeded ticket exactly once, in exactly ⌈n/100⌉ list calls.'
			: `**Failures:**\n\n${results.failures.map((f) => `- ${f}`).join('\n')}`,
		'',
		'## Summary',
		'',
		SUMMARY_START,
		targetsTable(results),
		'',
		'Every way of importing, peak RSS / heap retained after the import and a full GC (MiB; the retained heap of the three',
		'last rows is the data n8n holds for the one execution until it ends):',
		'',
		comparisonTable(results),
		SUMMARY_END,
		'',
		'## What to use when',
		'',
		conclusion(results),
		'',
		'## The four ways',
		'',
		...(['page-per-execution', 'sub-workflow-per-page', 'loop-in-one-execution', 'return-all'] as ImportMode[]).map((mode) => `- \`${mode}\`: ${MODE_MEANING[mode]}.`),
		'',
		'All four write to the same place: the loop\'s "Write Page" (n8n\'s No Operation node), replaced by a stand-in that passes the',
		'items on as No Operation does and ticks each ticket off in a bitmap (n/8 bytes, allocated before the measurement), which is how',
		'"written exactly once" is counted without holding the tickets. Split Out copies each ticket into a new object, as n8n 2.x\'s node',
		'does. The one-page sub-workflow is the shipped example without the If node, started by an Execute Workflow Trigger with',
		'`{ next_cursor }` and ending with a Code node that returns `{ has_more, next_cursor }`; the Execute Workflow stand-in runs it as a',
		'separate execution in the same process (as n8n does outside queue mode) and returns its last node\'s output.',
		'',
		'## Every measurement',
		'',
		'"half-way" is the heap retained when half the tickets had been written (full GC inside the writer; not for Return All, whose',
		'writer gets every ticket at once); "retained B / ticket, 2nd half" is what the second half of the tickets added',
		'to the heap, per ticket: about 0 when memory is flat. "last execution data as JSON" is `JSON.stringify` of each node run of the',
		'last execution, summed: an upper bound of what n8n writes to its database when it saves that execution (n8n\'s serialiser,',
		'flatted, writes an object shared by two node outputs once). A `*` on peak RSS: the peak was reached while loading or warming up.',
		'',
		measurementsTable(results),
		'',
		`## Peak RSS as the import goes, ${count(sizes[sizes.length - 1])} tickets`,
		'',
		'Page by page the peak stops rising after the first tenths: from there on V8 collects the garbage of old pages instead of growing',
		'the heap; in one execution it rises with every page.',
		'',
		progressTable(results),
		'',
		'## The sandbox (a process of its own, one per size)',
		'',
		sandboxTable(results),
		'',
		'## How this was measured',
		'',
		`- **Machine:** ${facts.cpu}, ${facts.cores} cores, ${facts.memoryGb.toFixed(0)} GiB, ${facts.os}; Node ${facts.node}; ` +
			Object.entries(facts.packages)
				.map(([name, version]) => `${name} ${version}`)
				.join(', ') +
			'.',
		`- **Load average** (1/5/15 min) before: ${results.loadBefore}; after: ${results.loadAfter} (a shared machine: times move from run to run; memory figures much less).`,
		'- **Processes:** the sandbox (`build/test/sandbox/cli.js --seed n`) runs in a process of its own; every measurement runs in a',
		'  fresh child (`bench/measureImport.tsx`, `node --expose-gc`, plus `--max-old-space-size` for the capped row) that loads the harness',
		'  (n8n-core\'s WorkflowExecute, the package from dist/), warms up with 20 one-page executions, runs a full GC and then imports',
		'  every ticket once. Peak RSS is that child\'s `process.resourceUsage().maxRSS`, so it includes n8n-core and the package as loaded',
		'  (the "RSS before" column); "retained heap" is `heapUsed` after the import and a full GC minus before, with the last execution\'s',
		'  data still held. Calls are counted from the sandbox\'s own request log (cleared after the warm-up). Executions run in n8n\'s',
		'  `manual` mode, the sub-workflow\'s in `integrated` mode (what n8n uses for a sub-workflow).',
		'- **Not measured here:** a real n8n process carries far more than this harness (its server, database, all built-in nodes),',
		'  so add its own baseline to these figures; and n8n saves each execution at its end, which for one long execution means',
		'  serialising everything it held (the JSON column) on top of it.',
		`- **Command:** \`${results.command}\` (= \`npm run build && npm run build:tools && node build/bench/pageMemory.js\`). Options:`,
		'  `--sizes 10000,100000,1000000`, `--loop-max 1000000` and `--return-all-max 100000` (largest size for those modes), `--out FILE`,',
		'  `--no-results-md` (leave bench/results.md alone).',
		'',
	].join('\n');
}
