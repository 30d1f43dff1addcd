/**
 * n8n's verification scanner (@n8n/scan-community-package) on this checkout.
 *
 * Its command line only scans a package already published on npm, so this runs the analysis it
 * exports, with the same file selection it uses for a published package: the source tree
 * (package.json, nodes/, credentials/) and the `npm pack` tarball (every .js file and
 * package.json), i.e. exactly what `npm publish` would upload. Any finding fails (exit 1).
 * dist/ must be built first (`npm test` runs it after the build and the lint).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { packPackage, removePackedPackage } from '../test/e2e/packPackage';
import { runChecked } from '../test/e2e/n8n/run';
import { repoRoot } from '../test/harness/repoPath';

interface AnalysisResult {
	passed: boolean;
	message?: string;
	details?: string;
}

interface Scanner {
	SOURCE_FILE_PATTERNS: string[];
	analyzePackage(packageDir: string, filePatterns?: string[]): Promise<AnalysisResult>;
}

/** The file selection the scanner's own analyzePackageByName uses for the published files. */
const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

async function loadScanner(): Promise<Scanner> {
	// An untyped ES module without an exports map; Node 20.19+ and 24 load it through require.
	const specifier = '@n8n/scan-community-package/scanner/scanner.mjs';
	return (await import(specifier)) as Scanner;
}

function report(label: string, result: AnalysisResult): boolean {
	if (result.passed) {
		console.log(`✓ ${label}: no findings${result.message ? ` (${result.message})` : ''}`);
	} else {
		console.error(`✗ ${label}: ${result.message ?? 'failed'}`);
		if (result.details) console.error(result.details);
	}
	return result.passed;
}

async function main(): Promise<void> {
	const scanner = await loadScanner();
	const root = repoRoot();
	const sourcePassed = report(
		'source tree',
		await scanner.analyzePackage(root, scanner.SOURCE_FILE_PATTERNS),
	);

	const packed = await packPackage();
	const unpacked = mkdtempSync(path.join(tmpdir(), 'support-ticket-scan-'));
	let tarballPassed = false;
	try {
		await runChecked('tar', ['xzf', packed.tarball, '-C', unpacked]);
		const packageDir = path.join(unpacked, 'package');
		tarballPassed = report(
			`npm pack tarball (${path.basename(packed.tarball)})`,
			await scanner.analyzePackage(packageDir, TARBALL_FILE_PATTERNS),
		);
	} finally {
		rmSync(unpacked, { recursive: true, force: true });
		removePackedPackage(packed);
	}
	if (!sourcePassed || !tarballPassed) process.exitCode = 1;
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
