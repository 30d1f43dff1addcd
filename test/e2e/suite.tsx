/**
 * A small sequential test runner for the end-to-end suites: they share expensive state (an n8n
 * install, a user folder, a running server) and must run in order, one n8n process at a time
 * on a 2-core machine. Prints each result and returns the totals for the summary file.
 */
export interface Totals {
	passed: number;
	failed: number;
}

type TestBody = () => Promise<void>;

export class Suite {
	private readonly tests: Array<{ name: string; body: TestBody }> = [];

	constructor(readonly title: string) {}

	test(name: string, body: TestBody): void {
		this.tests.push({ name, body });
	}

	get size(): number {
		return this.tests.length;
	}

	async run(): Promise<Totals> {
		const totals: Totals = { passed: 0, failed: 0 };
		console.log(`\n${this.title}`);
		for (const { name, body } of this.tests) {
			const started = Date.now();
			try {
				await body();
				totals.passed++;
				console.log(`  ✓ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
			} catch (error) {
				totals.failed++;
				console.log(`  ✗ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)\n${indent(describe(error))}`);
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

function indent(text: string): string {
	return text
		.split('\n')
		.map((line) => `      ${line}`)
		.join('\n');
}
