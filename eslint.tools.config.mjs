// Lint for the code that is never shipped (test/, sandbox/, bench/, scripts/): plain TypeScript rules.
// It may use process, timers, node: modules and the console, which the shipped-code rules of
// eslint.config.mjs (n8n's unmodified template, required by `"strict": true`) forbid.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**', 'build/**', 'node_modules/**', 'coverage/**', '.tmp/**'] },
	{
		files: ['{test,sandbox,bench,scripts}/**/*.{ts,tsx}'],
		extends: [js.configs.recommended, tseslint.configs.recommended],
	},
);
