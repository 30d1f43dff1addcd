/**
 * Tests run from their TypeScript sources: @swc/jest strips the types file by file (fast, no
 * build step), with the same output settings as tsc (test/harness/swcOptions.js). The type check
 * is tsc's, in `npm test` (`tsc -p tsconfig.tools.json`, strict, the same compiler as the package).
 * Tests that run workflows load the package from dist/, as n8n does: `npm run build` first.
 */
const { swcOptions } = require('./test/harness/swcOptions');

const swc = (filename) => {
	const { filename: _unused, ...options } = swcOptions(filename);
	return ['@swc/jest', options];
};

/** @type {import('jest').Config} */
module.exports = {
	rootDir: __dirname,
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.tsx'],
	transform: {
		'\\.tsx$': swc('file.tsx'),
		'\\.ts$': swc('file.ts'),
	},
	modulePathIgnorePatterns: ['<rootDir>/build/'],
	setupFiles: ['<rootDir>/test/setupEnv.tsx'],
	// n8n-core's timers a test file started, stopped as it ends (as n8n's exit does).
	setupFilesAfterEnv: ['<rootDir>/test/harness/stopN8nCore.tsx'],
	// n8n's logger and any console call are held back and shown with a failing test only.
	testEnvironment: '<rootDir>/test/harness/quietEnvironment.tsx',
	// Only a hang should hit this: on a loaded 2-core machine a 100k-ticket traversal took over 60 s.
	testTimeout: 300_000,
	maxWorkers: 2,
	reporters: ['default', '<rootDir>/test/reporters/summaryFile.js'],
};
