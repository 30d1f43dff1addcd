/**
 * `npm run soak`: the node under faults, through n8n's engine in-process, against the sandbox
 * in the same process. Bounded in time; prints counts; exits 1 on any violation.
 *
 *   node build/bench/soak.js [--fault-seeds 1,2,3] [--retry-after 0]
 *
 * Faults: 15% 429 + 15% 503 (30% of requests), latency 0–20 ms on every request. The sandbox
 * sends `Retry-After: 0` by default so the soak takes seconds, not minutes (waiting for a
 * Retry-After is covered by the retry-policy tests); `--retry-after 1` makes every fault cost 1 s.
 * The fault draws come from a seeded PRNG and only the node's requests draw, so a run replays
 * exactly; the fault steps run once per fault seed, each on a freshly seeded sandbox, so more
 * than one fault sequence is covered without making the soak random.
 */
import { isolateUserFolder } from '../test/harness';
import { type FaultOptions, type Sandbox, startSandbox } from '../test/sandbox';
import { DEFAULT_CONCURRENT_REQUESTS } from '../nodes/SupportTicket/actions/common.descriptions';
import { soakCreate } from './soakCreate';
import { soakReturnAll } from './soakReturnAll';
import { soakServerGone } from './soakServerGone';
import type { SoakStep } from './soakStep';

const TICKETS = 10_000;
const CREATIONS = 500;
const STOP_AFTER_PAGES = 30;
const TIME_LIMIT_MS = 5 * 60_000;

function integers(name: string, fallback: string): number[] {
	const index = process.argv.indexOf(`--${name}`);
	const values = (index === -1 ? fallback : (process.argv[index + 1] ?? '')).split(',').map(Number);
	if (!values.every((value) => Number.isSafeInteger(value) && value >= 0)) throw new Error(`--${name} takes non-negative integers, comma-separated`);
	return values;
}

function print(step: SoakStep, index: number): void {
	console.log(`\n${index}. ${step.title}`);
	for (const line of step.lines) console.log(`   ${line}`);
	console.log(step.violations.length === 0 ? '   ok' : step.violations.map((v) => `   VIOLATION: ${v}`).join('\n'));
}

async function main(): Promise<number> {
	isolateUserFolder();
	const seeds = integers('fault-seeds', '1,2,3');
	const [retryAfter] = integers('retry-after', '0');
	const faultsFor = (seed: number): FaultOptions => ({ rate429: 0.15, rate503: 0.15, latencyMs: [0, 20], retryAfter, seed });
	console.log(`soak: faults ${JSON.stringify({ ...faultsFor(0), seed: seeds })}; time limit ${TIME_LIMIT_MS / 1000} s`);
	const started = performance.now();
	const steps: SoakStep[] = [];
	const run = async (step: Promise<SoakStep | SoakStep[]>, label = ''): Promise<void> => {
		for (const done of ([] as SoakStep[]).concat(await step)) {
			steps.push(label ? { ...done, title: `${done.title} [${label}]` } : done);
			print(steps[steps.length - 1], steps.length);
		}
	};

	for (const seed of seeds) {
		const faults = faultsFor(seed);
		for (const step of [
			(sandbox: Sandbox) => soakReturnAll(sandbox, { faults, createEveryMs: 5, sortOrder: 'desc' }),
			(sandbox: Sandbox) => soakReturnAll(sandbox, { faults, createEveryMs: 5, sortOrder: 'asc' }),
			(sandbox: Sandbox) => soakCreate(sandbox, CREATIONS, faults, 1),
			(sandbox: Sandbox) => soakCreate(sandbox, CREATIONS, faults, DEFAULT_CONCURRENT_REQUESTS),
		]) {
			const sandbox = await startSandbox({ seed: TICKETS });
			try {
				await run(step(sandbox), `fault seed ${seed}`);
			} finally {
				await sandbox.stop();
			}
		}
	}
	await run(soakServerGone(TICKETS, STOP_AFTER_PAGES));

	const violations = steps.flatMap((step) => step.violations);
	console.log(`\nsoak: ${steps.length} steps in ${((performance.now() - started) / 1000).toFixed(1)} s, ${violations.length} violation(s)`);
	return violations.length === 0 ? 0 : 1;
}

// Bounded: whatever happens, the soak ends within the time limit.
const limit = setTimeout(() => {
	console.error(`soak: VIOLATION: not finished within ${TIME_LIMIT_MS / 1000} s`);
	process.exit(1);
}, TIME_LIMIT_MS);

main()
	.then((code) => {
		clearTimeout(limit);
		process.exitCode = code;
	})
	.catch((error: unknown) => {
		clearTimeout(limit);
		console.error('soak: failed to run:', error);
		process.exitCode = 1;
	});
