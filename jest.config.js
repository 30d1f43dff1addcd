/**
 * Tests are TypeScript, compiled once by `npm run build:tools` (tsc -p tsconfig.json, strict,
 * the same compiler as the package) into build/; jest runs the compiled files with source maps.
 * One compiler for everything means tests are type-checked exactly like the shipped code.
 */
/** @type {import('jest').Config} */
module.exports = {
	rootDir: __dirname,
	roots: ['<rootDir>/build/test'],
	testMatch: ['**/*.test.js'],
	setupFiles: ['<rootDir>/build/test/setupEnv.js'],
	testEnvironment: 'node',
	// Only a hang should hit this: on a loaded 2-core machine a 100k-ticket traversal took over 60 s.
	testTimeout: 300_000,
	maxWorkers: 2,
	reporters: ['default', '<rootDir>/test/reporters/summaryFile.js'],
};
