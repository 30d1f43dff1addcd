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
import { type Comparison, compareSides, violations } from './compareSides';
import { loadAverage, machineFacts } from './machineFacts';
import type { Side } from './measureTraversal';
import { profileRun } from './profileRun';
import { type BenchResults, renderResults } from './report';
import { type SandboxProcess, startSandboxProcess } from './sandboxProcess';
import { measureSigningCosts } from './signingCost';

const LARGE = 100_000;
const SCALING_SIZES = [1_000, 10_000];
const SCALING_ROUNDS = 3;
const LIMIT = 250;
const MAIN_SIDES: Side[] = ['raw', 'node', 'raw-new-connection', 'n8n-http'];

function option(name: string, fallback: string): string {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

const log = (line: string): void => console.log(line);

async function withSandbox<T>(seed: number, use: (sandbox: SandboxProcess) => Promise<T>): Promise<T> {
	log(`sandbox: seeding ${seed.toLocaleString('en')} tickets`);
	const sandbox = await startSandboxProcess({ seed });
	try {
		return await use(sandbox);
	} finally {
		await sandbox.stop();
	}
}

function returnAll(tickets: number): Omit<Comparison, 'measurements'> {
	return { title: `Return All ${tickets.toLocaleString('en')}`, tickets, expectedItems: tickets, expectedCalls: Math.ceil(tickets / 100) };
}

async function main(): Promise<void> {
	const rounds = Number(option('rounds', '5'));
	const out = option('out', repoPath('bench', 'results.md'));
	const startedAt = new Date();
	const loadBefore = loadAverage();
	log(`bench: ${rounds} rounds, load average ${loadBefore}`);

	const [main, limit] = await withSandbox(LARGE, async (sandbox) => [
		await compareSides(sandbox, MAIN_SIDES, rounds, returnAll(LARGE), log),
		await compareSides(sandbox, ['raw', 'node'], rounds, { title: `Limit ${LIMIT}`, tickets: LARGE, limit: LIMIT, expectedItems: LIMIT, expectedCalls: Math.ceil(LIMIT / 100) }, log),
	]);
	const scaling: Comparison[] = [];
	for (const size of SCALING_SIZES) {
		scaling.push(await withSandbox(size, (sandbox) => compareSides(sandbox, ['raw', 'node'], SCALING_ROUNDS, returnAll(size), log)));
	}
	scaling.push(main);

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
		violations: [main, limit, ...scaling.slice(0, -1)].flatMap(violations),
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
