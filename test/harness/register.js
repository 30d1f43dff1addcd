// Lets a node process started by a test (`node -r test/harness/register.js file.tsx`, or through
// NODE_OPTIONS, which test/setupEnv.tsx sets) load the TypeScript sources, as jest does.
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');
const { swcOptions } = require('./swcOptions');

for (const extension of ['.ts', '.tsx']) {
	require.extensions[extension] = (module, filename) => {
		module._compile(transformSync(readFileSync(filename, 'utf8'), swcOptions(filename)).code, filename);
	};
}
