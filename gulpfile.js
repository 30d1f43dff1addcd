// Build helpers tsc does not cover: cleaning output folders (so a renamed source never leaves a
// stale compiled file behind: in dist/ it would ship, in build/ a stale test would still run) and
// copying icons and codex json into dist/ with their relative paths, so the `file:` icon
// references of nodes and credentials resolve in the published package.
const { rmSync } = require('node:fs');
const { src, dest } = require('gulp');

function cleanDist(done) {
	rmSync('dist', { recursive: true, force: true });
	done();
}

function cleanBuild(done) {
	rmSync('build', { recursive: true, force: true });
	done();
}

function copyAssets() {
	return src(['icons/**/*.svg', 'nodes/**/*.{svg,png,json}', 'credentials/**/*.{svg,png}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['clean:dist'] = cleanDist;
exports['clean:build'] = cleanBuild;
exports['build:assets'] = copyAssets;
