// Copies what tsc does not emit (icons, codex json) into dist/, keeping relative paths so the
// `file:` icon references of nodes and credentials resolve in the published package.
const { src, dest } = require('gulp');

function copyAssets() {
	return src(['icons/**/*.svg', 'nodes/**/*.{svg,png,json}', 'credentials/**/*.{svg,png}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:assets'] = copyAssets;
