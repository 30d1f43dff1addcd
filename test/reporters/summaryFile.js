// Writes jest's totals to $TEST_SUMMARY_FILE as JSON, so .ci/run can print one plain
// "N passed, N failed" line over every suite it ran without parsing jest's console output.
const { writeFileSync } = require('node:fs');

class SummaryFileReporter {
	onRunComplete(_contexts, results) {
		const file = process.env.TEST_SUMMARY_FILE;
		if (!file) return;
		writeFileSync(
			file,
			JSON.stringify({
				passed: results.numPassedTests,
				// A suite that cannot even load counts as one failure: it must not vanish from the total.
				failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
			}),
		);
	}
}

module.exports = SummaryFileReporter;
