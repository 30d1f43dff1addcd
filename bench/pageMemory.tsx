/**
 * `npm run bench:memory`: memory of importing every ticket of a large account through n8n-core's
 * WorkflowExecute (test/harness runWorkflow), in four ways: one page per execution (the cursor
 * carried from execution to execution), a parent calling a sub-workflow per page, the shipped
 * page loop inside one execution, and Return All. Each measurement runs alone in a fresh child
 * process; the sandbox runs in a process of its own, one per size.
 * Writes bench/memory-results.md and the memory section of bench/results.md.
 *
 *   node build/bench/pageMemory.js [--sizes 10000,100000,1000000] [--loop-max 1000000]
 *        [--return-all-max 100000] [--out bench/memory-results.md] [--no-results-md]
 *
 * Exits 1 when an import wrote a ticket twice, missed one, or made the wrong number of calls or
 * executions; missed memory targets are reported in the results, not as a failure.
 */
import { readFileSync, writeFileSync } from 'node:fs';

import { repoPath } from '../test/harness/repoPath';
import { forkImport, type ImportMeasurement } from './forkImport';
import type { ImportMode } from './importWorkflows';
import { loadAverage, machineFacts } from './machineFacts';
import { upsertMemorySection } from './memorySection';
import { type MemoryResults, renderMemoryResults } from './memoryReport';
import { PAGE_SIZE } from './runImport';
import { startSandboxProcess } from './sandboxProcess';

export interface SandboxFigures {
	tickets: number;
	/** From spawning the sandbox process until it is ready, seeding included. */
	readyMs: number;
	/** The sandbox process's peak RSS (VmHWM) at the end, bytes. */
	peakRssBytes: number;
}

export interface PlannedMeasurement {
	mode: ImportMode;
	heapCapMiB?: number;
	/** Skipped above this many tickets. */
	maxTickets?: number;
}

/** V8's old-space cap (MiB) that shows what page by page needs, rather than what V8 lets garbage grow to. */
export const HEAP_CAP_MIB = 128;

const log = (line: string): void => console.log(line);
const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);

function option(name: string, fallback: string): string {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

function peakRssOf(pid: number): number {
	try {
		const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
		return kb === undefined ? Number.NaN : Number(kb) * 1024;
	} catch {
		return Number.NaN;
	}
}

/** What every import must do: write each seeded ticket exactly once, in ⌈n/100⌉ list calls. */
export function correctnessFailures(m: ImportMeasurement): string[] {
	const pages = Math.ceil(m.tickets / PAGE_SIZE);
	const what = `${m.mode}${m.heapCapMiB === undefined ? '' : ` (--max-old-space-size=${m.heapCapMiB})`} ${m.tickets}`;
	const failures: string[] = [];
	if (m.written !== m.tickets || m.distinct !== m.tickets) failures.push(`${what}: wrote ${m.written} items, ${m.distinct} distinct tickets, expected ${m.tickets}`);
	if (m.duplicates !== 0 || m.unknown !== 0) failures.push(`${what}: ${m.duplicates} duplicates, ${m.unknown} unknown ids`);
	if (m.calls !== pages || m.requests !== pages) failures.push(`${what}: ${m.calls} list calls (${m.requests} requests), expected ${pages}`);
	const expectedExecutions = { 'page-per-execution': pages, 'sub-workflow-per-page': pages + 1, 'loop-in-one-execution': 1, 'return-all': 1 }[m.mode];
	if (m.executions !== expectedExecutions) failures.push(`${what}: ${m.executions} executions, expected ${expectedExecutions}`);
	const expectedNodeRuns = m.mode === 'return-all' ? 1 : pages;
	if (m.nodeRuns !== expectedNodeRuns) failures.push(`${what}: the node reading tickets ran ${m.nodeRuns} times, expected ${expectedNodeRuns}`);
	return failures;
}

export async function measureMemory(sizes: number[], plan: PlannedMeasurement[]): Promise<Pick<MemoryResults, 'sandboxes' | 'measurements' | 'failures'>> {
	const results: Pick<MemoryResults, 'sandboxes' | 'measurements' | 'failures'> = { sandboxes: [], measurements: [], failures: [] };
	for (const tickets of sizes) {
		const started = Date.now();
		const sandbox = await startSandboxProcess({ seed: tickets });
		const figures: SandboxFigures = { tickets, readyMs: Date.now() - started, peakRssBytes: Number.NaN };
		results.sandboxes.push(figures);
		log(`sandbox: ${tickets} tickets seeded and ready in ${(figures.readyMs / 1000).toFixed(1)} s`);
		try {
			for (const { mode, heapCapMiB, maxTickets } of plan) {
				if (tickets > (maxTickets ?? Number.POSITIVE_INFINITY)) continue;
				const target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret };
				const m = await forkImport({ mode, heapCapMiB, tickets, target }, sandbox);
				const failures = correctnessFailures(m);
				results.measurements.push(m);
				results.failures.push(...failures);
				log(
					`${`${mode}${heapCapMiB === undefined ? '' : ` (--max-old-space-size=${heapCapMiB})`}`.padEnd(46)} ${String(tickets).padStart(8)}: ` +
						`peak RSS ${mib(m.maxRssBytes)} MiB (before ${mib(m.rssBeforeBytes)}), retained heap ${mib(m.heapAfterBytes - m.heapBeforeBytes)} MiB, ` +
						`${m.executions} executions, ${m.calls} calls, ${(m.wallMs / 1000).toFixed(1)} s${failures.length ? `  FAILED: ${failures.join('; ')}` : ''}`,
				);
			}
		} finally {
			figures.peakRssBytes = peakRssOf(sandbox.pid);
			await sandbox.stop();
		}
	}
	return results;
}

async function main(): Promise<void> {
	const sizes = option('sizes', '10000,100000,1000000').split(',').map(Number);
	const out = option('out', repoPath('bench', 'memory-results.md'));
	const plan: PlannedMeasurement[] = [
		{ mode: 'page-per-execution' },
		{ mode: 'page-per-execution', heapCapMiB: HEAP_CAP_MIB },
		{ mode: 'sub-workflow-per-page' },
		{ mode: 'loop-in-one-execution', maxTickets: Number(option('loop-max', '1000000')) },
		{ mode: 'return-all', maxTickets: Number(option('return-all-max', '100000')) },
	];
	const startedAt = new Date();
	const loadBefore = loadAverage();
	log(`bench:memory: ${sizes.join(', ')} tickets, load average ${loadBefore}`);
	const measured = await measureMemory(sizes, plan);
	const args = process.argv.slice(2).join(' ');
	const results: MemoryResults = {
		...measured,
		startedAt,
		durationSeconds: (Date.now() - startedAt.getTime()) / 1000,
		command: `npm run bench:memory${args ? ` -- ${args}` : ''}`,
		facts: machineFacts(),
		loadBefore,
		loadAfter: loadAverage(),
		heapCapMiB: HEAP_CAP_MIB,
	};
	writeFileSync(out, renderMemoryResults(results));
	log(`wrote ${out} (${results.durationSeconds.toFixed(0)} s)`);
	if (!process.argv.includes('--no-results-md')) {
		const resultsMd = repoPath('bench', 'results.md');
		upsertMemorySection(resultsMd, out);
		log(`updated the memory section of ${resultsMd}`);
	}
	for (const failure of results.failures) console.error(`FAILED: ${failure}`);
	if (results.failures.length > 0) process.exitCode = 1;
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error);
		process.exitCode = 1;
	});
}
