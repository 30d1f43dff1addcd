/**
 * `npm run bench -- --memory`: memory of importing every ticket of a large account through n8n-core's
 * WorkflowExecute in four ways (bench/imports.tsx), each measurement alone in a fresh child, the
 * sandbox in a process of its own, one per size. Writes bench/memory-results.md and the memory
 * section of bench/results.md.
 *
 *   node build/bench/pageMemory.js [--sizes 10000,100000,1000000] [--loop-max 1000000]
 *        [--return-all-max 100000] [--out bench/memory-results.md] [--no-results-md]
 *
 * Exits 1 when an import wrote a ticket twice, missed one, or made the wrong number of calls or
 * executions; missed memory targets are reported in the results, not as a failure.
 */
import { writeFileSync } from 'node:fs';

import { repoPath } from '../test/harness';
import { correctnessFailures, type ImportMode, measureImport } from './imports';
import {
	checkOptions,
	type MemoryResults,
	option,
	renderMemoryResults,
	startRun,
	upsertMemorySection,
} from './report';
import { startSandboxProcess } from './sandboxProcess';

/** V8's old-space cap (MiB) that shows what page by page needs, rather than what V8 lets garbage grow to. */
const HEAP_CAP_MIB = 128;
const log = (line: string): void => console.log(line);
const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);

async function main(): Promise<void> {
	checkOptions(['sizes', 'loop-max', 'return-all-max', 'out'], ['no-results-md']);
	const sizes = option('sizes', '10000,100000,1000000').split(',').map(Number);
	const out = option('out', repoPath('bench', 'memory-results.md'));
	const plan: Array<{ mode: ImportMode; heapCapMiB?: number; maxTickets?: number }> = [
		{ mode: 'page-per-execution' },
		{ mode: 'page-per-execution', heapCapMiB: HEAP_CAP_MIB },
		{ mode: 'sub-workflow-per-page' },
		{ mode: 'loop-in-one-execution', maxTickets: Number(option('loop-max', '1000000')) },
		{ mode: 'return-all', maxTickets: Number(option('return-all-max', '100000')) },
	];
	const run = startRun('--memory');
	log(`bench --memory: ${sizes.join(', ')} tickets`);
	const results: Omit<MemoryResults, 'run'> = {
		heapCapMiB: HEAP_CAP_MIB,
		measurements: [],
		failures: [],
	};
	for (const tickets of sizes) {
		const sandbox = await startSandboxProcess(tickets);
		try {
			for (const { mode, heapCapMiB } of plan.filter(
				(p) => tickets <= (p.maxTickets ?? Number.POSITIVE_INFINITY),
			)) {
				const m = await measureImport({ mode, heapCapMiB, tickets, target: sandbox.target });
				const failures = correctnessFailures(m);
				results.measurements.push(m);
				results.failures.push(...failures);
				log(
					`${`${mode}${heapCapMiB === undefined ? '' : ` (--max-old-space-size=${heapCapMiB})`}`.padEnd(46)} ${String(tickets).padStart(8)}: peak RSS ${mib(m.maxRssBytes)} MiB (before ${mib(m.rssBeforeBytes)}), ` +
						`retained heap ${mib(m.heapAfterBytes - m.heapBeforeBytes)} MiB, ${m.executions} executions, ${m.calls} calls, ${(m.wallMs / 1000).toFixed(1)} s${failures.length ? `  FAILED: ${failures.join('; ')}` : ''}`,
				);
			}
		} finally {
			await sandbox.stop();
		}
	}
	const finished = { ...results, run: run.finish() };
	writeFileSync(out, renderMemoryResults(finished));
	log(`wrote ${out} (${finished.run.durationSeconds.toFixed(0)} s)`);
	if (!process.argv.includes('--no-results-md')) {
		upsertMemorySection(repoPath('bench', 'results.md'), out);
		log('updated the memory section of bench/results.md');
	}
	for (const failure of results.failures) console.error(`FAILED: ${failure}`);
	if (results.failures.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
