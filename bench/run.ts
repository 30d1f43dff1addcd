/**
 * `npm run bench`: the node's Return All against the raw signed traversal, side by side, plus
 * Limit 250, scaling, a profile and the signing micro-benchmark; writes bench/results.md.
 *
 *   node build/bench/run.js [--rounds 5] [--out bench/results.md]
 *
 * Exits 1 when a traversal returned the wrong items or made the wrong number of calls (a
 * correctness failure); missed speed targets are reported in results.md, not as a failure.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { repoPath } from '../test/harness/repoPath';
import { type Comparison, type ComparisonSpec, compareInterleaved, violations } from './compareSides';
import { loadAverage, machineFacts } from './machineFacts';
import type { Side } from './measureTraversal';
import { profileRun } from './profileRun';
import { type BenchResults, renderResults } from './report';
import { startSandboxProcess } from './sandboxProcess';
import { measureSigningCosts } from './signingCost';

const LARGE = 100_000;
const SCALING_SIZES = [1_000, 10_000];
const LIMIT = 250;
const MAIN_SIDES: Side[] = ['raw', 'node', 'raw-new-connection', 'n8n-http'];

function option(name: string, fallback: string): string {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

const log = (line: string): void => console.log(line);

function returnAll(tickets: number): ComparisonSpec {
	return { title: `Return All ${tickets.toLocaleString('en')}`, tickets, expectedItems: tickets, expectedCalls: Math.ceil(tickets / 100) };
}

async function main(): Promise<void> {
	const rounds = Number(option('rounds', '5'));
	const out = option('out', repoPath('bench', 'results.md'));
	const startedAt = new Date();
	const loadBefore = loadAverage();
	log(`bench: ${rounds} rounds, load average ${loadBefore}`);

	// One sandbox process per size, all up for the whole run, so every round covers every size.
	const sizes = [LARGE, ...SCALING_SIZES];
	log(`sandboxes: seeding ${sizes.map((n) => n.toLocaleString('en')).join(', ')} tickets`);
	const started = await Promise.allSettled(sizes.map((seed) => startSandboxProcess({ seed })));
	const sandboxes = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
	const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
	if (failed) {
		await Promise.all(sandboxes.map((sandbox) => sandbox.stop()));
		throw failed.reason;
	}
	let comparisons: Comparison[];
	try {
		const [large, ...small] = sandboxes;
		comparisons = await compareInterleaved(
			[
				{ spec: returnAll(LARGE), sandbox: large, sides: MAIN_SIDES },
				{ spec: { title: `Limit ${LIMIT}`, tickets: LARGE, limit: LIMIT, expectedItems: LIMIT, expectedCalls: Math.ceil(LIMIT / 100) }, sandbox: large, sides: ['raw', 'node'] },
				...small.map((sandbox, i) => ({ spec: returnAll(SCALING_SIZES[i]), sandbox, sides: ['raw', 'node'] as Side[] })),
			],
			rounds,
			log,
		);
	} finally {
		await Promise.all(sandboxes.map((sandbox) => sandbox.stop()));
	}
	const [main, limit, ...smaller] = comparisons;
	const scaling = [...smaller, main];

	log('profile: one profiled Return All per side, sandbox profiled too');
	const profile = await profileRun(LARGE, ['node', 'raw']);
	log('signing micro-benchmark');
	const { results: signing } = await measureSigningCosts();

	const analysisFile = repoPath('bench', 'analysis.md');
	const results: BenchResults = {
		startedAt,
		durationSeconds: (Date.now() - startedAt.getTime()) / 1000,
		command: `npm run bench${rounds === 5 ? '' : ` -- --rounds ${rounds}`}`,
		facts: machineFacts(),
		loadBefore,
		loadAfter: loadAverage(),
		rounds,
		main,
		limit,
		scaling,
		profile,
		signing,
		violations: comparisons.flatMap(violations),
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
