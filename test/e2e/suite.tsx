import { writeFileSync } from 'node:fs';

// A sequential runner: the e2e suites share an n8n install, a user folder and a server, one n8n process at a time on 2 cores.
export interface Totals {
	passed: number;
	failed: number;
}

type TestBody = () => Promise<void>;

export const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

export class Suite {
	private readonly tests: Array<{ name: string; body: TestBody }> = [];

	constructor(readonly title: string) {}

	test(name: string, body: TestBody): void {
		// `E2E_ONLY=<regular expression>` runs just the tests whose name matches it (e.g. `E2E_ONLY='Idempotency-Key'`).
		if (process.env.E2E_ONLY && !new RegExp(process.env.E2E_ONLY).test(name)) return;
		this.tests.push({ name, body });
	}

	async run(): Promise<Totals> {
		const totals: Totals = { passed: 0, failed: 0 };
		console.log(`\n${this.title}`);
		for (const { name, body } of this.tests) {
			const started = Date.now();
			try {
				await body();
				totals.passed++;
				console.log(`  ✓ ${name} (${seconds(started)})`);
			} catch (error) {
				totals.failed++;
				console.log(`  ✗ ${name} (${seconds(started)})\n${indent(describe(error))}`);
			}
		}
		return totals;
	}

	/** When the suite's setup failed, every test in it counts as failed: none may vanish from the total. */
	failAll(reason: unknown): Totals {
		console.log(`\n${this.title}\n  setup failed:\n${indent(describe(reason))}`);
		for (const { name } of this.tests) console.log(`  ✗ ${name} (not run)`);
		return { passed: 0, failed: Math.max(1, this.tests.length) };
	}
}

function describe(error: unknown): string {
	return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

const indent = (text: string) => text.replace(/^/gm, '      ');

/** Totals to $TEST_SUMMARY_FILE (as jest does in .ci/run), the "N passed, N failed" line, the exit code. */
export function reportTotals(totals: Totals, what: string): void {
	if (process.env.TEST_SUMMARY_FILE)
		writeFileSync(process.env.TEST_SUMMARY_FILE, JSON.stringify(totals));
	console.log(`\n${what}`);
	console.log(`${totals.passed} passed, ${totals.failed} failed`);
	process.exitCode = totals.failed ? 1 : 0;
}

/** Runs a runner's main; a crash outside every test still counts as one failure. */
export function runMain(main: () => Promise<void>): void {
	main().catch((error: unknown) => {
		console.error(error);
		reportTotals({ passed: 0, failed: 1 }, 'the runner itself failed');
	});
}
