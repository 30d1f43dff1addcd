// One swc configuration for jest (jest.config.js) and the node processes tests start (register.js): what tsc emits
// for tsconfig.json (CommonJS, ES2021, class fields assigned, not defined), without the type check (`npm test` has tsc).
/** @param {string} filename */
function swcOptions(filename) {
	return {
		filename,
		swcrc: false,
		configFile: false,
		sourceMaps: 'inline',
		module: { type: 'commonjs' },
		jsc: {
			target: 'es2021',
			parser: { syntax: 'typescript', tsx: filename.endsWith('.tsx') },
			transform: { useDefineForClassFields: false },
			keepClassNames: true,
		},
	};
}

module.exports = { swcOptions };
