// Every relative link in the docs reaches a file and, with a #anchor, a heading (GitHub's slug);
// every repo path a doc names in backticks exists; so does every "More info" link of the nodes.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

import { repoPath } from '../harness';

const root = repoPath();

/** What is not the repo's own: installed or compiled output, and git's and tools' folders. */
const NOT_SOURCE = new Set(['node_modules', 'dist', 'build', 'coverage', '.git', '.tmp']);

/** Every file of the repo, relative to its root, outside NOT_SOURCE. */
const repoFiles = (dir = ''): string[] =>
	readdirSync(repoPath(dir), { withFileTypes: true }).flatMap((entry) => {
		if (NOT_SOURCE.has(entry.name)) return [];
		const path = join(dir, entry.name);
		return entry.isDirectory() ? repoFiles(path) : [path];
	});

const allFiles = repoFiles();
const files = allFiles.filter((f) => f.endsWith('.md'));

/** GitHub's heading anchor: lowercase, punctuation other than hyphens and spaces removed, spaces → hyphens. */
const slug = (heading: string) =>
	heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\- _]/gu, '')
		.replace(/ /g, '-');

const stripBlocks = (md: string) => md.replace(/```[\s\S]*?```/g, '');
const stripCode = (md: string) => stripBlocks(md).replace(/`[^`\n]*`/g, '');

const anchorsOf = (file: string) => {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	for (const line of stripBlocks(readFileSync(file, 'utf8')).split('\n')) {
		const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!m) continue;
		const text = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
		const base = slug(text);
		const n = seen.get(base) ?? 0;
		seen.set(base, n + 1);
		anchors.add(n === 0 ? base : `${base}-${n}`);
	}
	return anchors;
};

const brokenLinks = () => {
	const broken: string[] = [];
	for (const file of files) {
		const abs = repoPath(file);
		for (const m of stripCode(readFileSync(abs, 'utf8')).matchAll(
			/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g,
		)) {
			const target = m[1];
			if (/^(https?:|mailto:)/i.test(target)) continue;
			const [path, anchor] = target.split('#') as [string, string | undefined];
			const dest = path === '' ? abs : join(dirname(abs), decodeURIComponent(path));
			if (!existsSync(dest)) {
				broken.push(`${file}: ${target} (no file ${relative(root, dest)})`);
				continue;
			}
			if (anchor !== undefined && dest.endsWith('.md') && !anchorsOf(dest).has(anchor))
				broken.push(`${file}: ${target} (no heading #${anchor} in ${relative(root, dest)})`);
		}
	}
	return broken;
};

const TOP_FOLDERS = readdirSync(root, { withFileTypes: true })
	.filter((entry) => entry.isDirectory() && !NOT_SOURCE.has(entry.name))
	.map((entry) => entry.name);
const EXTENSION = /\.(tsx?|jsx?|mjs|cjs|json|md|sh|ya?ml|jpe?g|png|svg|csv)$/;
/** Paths inside other packages (`n8n/dist/utils.js`): not ours to check. */
const OTHER_PACKAGES = /^(n8n|n8n-core|n8n-workflow|n8n-nodes-base|node_modules)\//;

/** A word in backticks that names a file or folder of the repo, the way the docs write them. */
const looksLikeRepoPath = (word: string) =>
	(EXTENSION.test(word) || TOP_FOLDERS.some((top) => word.startsWith(`${top}/`))) &&
	!/^[a-z][\w+.-]*:|^[/~]|[<>{}$]/i.test(word) &&
	!/^\.[a-z]+$/.test(word) &&
	!OTHER_PACKAGES.test(word);

const folders = new Set(
	allFiles.flatMap((f) => f.split('/').map((_, i, parts) => parts.slice(0, i).join('/'))),
);
const asPattern = (glob: string) =>
	new RegExp(`(^|/)${glob.replace(/[.+?^()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);

/**
 * Whether a cited path exists: from the repo root, from the doc's folder, or below a folder the
 * text names (`actions/router.ts`, `cli.tsx`); compiled code in `build/` and `dist/` by its source.
 */
const citedPathExists = (doc: string, cited: string) => {
	const path = cited.replace(/\/$/, '');
	if (path.includes('*')) return allFiles.some((f) => asPattern(path).test(f));
	const output = /^(?:build|dist)\/(.*?)(\.js)?$/.exec(path);
	if (output && !output[2]) return true; // what a build writes, other than compiled code
	const sources = output ? [`${output[1]}.ts`, `${output[1]}.tsx`] : [path];
	return sources.some((source) => {
		const fromDoc = normalize(join(dirname(doc), source));
		return [...allFiles, ...folders].some(
			(f) => f === source || f === fromDoc || f.endsWith(`/${source}`),
		);
	});
};

const staleCitedPaths = () => {
	const stale: string[] = [];
	for (const file of files) {
		const text = stripBlocks(readFileSync(repoPath(file), 'utf8'));
		for (const [, code] of text.matchAll(/`([^`\n]+)`/g))
			for (const word of code.split(/\s+/)) {
				const cited = word.replace(/^[('"]+|[)'",;.:]+$/g, '').replace(/(#|:\d).*$/, '');
				if (looksLikeRepoPath(cited) && !citedPathExists(file, cited))
					stale.push(`${file}: ${cited}`);
			}
	}
	return stale;
};

/** The nodes' "More info" links (`moreInfo('<page>.md#<anchor>')`) whose page or heading is missing. */
const brokenMoreInfoLinks = () =>
	allFiles
		.filter((file) => /^(nodes|credentials)\/.*\.ts$/.test(file))
		.flatMap((file) =>
			[
				...readFileSync(repoPath(file), 'utf8').matchAll(
					/moreInfo\('([\w-]+\.md)(?:#([\w-]+))?'\)/g,
				),
			]
				.filter(([, page, anchor]) => {
					const dest = repoPath('docs', page);
					return !existsSync(dest) || (anchor !== undefined && !anchorsOf(dest).has(anchor));
				})
				.map(([link]) => `${file}: ${link}`),
		);

describe('documentation links', () => {
	it.each([
		[
			'every relative link points at an existing file and, with #anchor, at a heading there',
			brokenLinks,
		],
		['every repo path a doc names in backticks exists', staleCitedPaths],
		[
			'every "More info" link in a node description points at a page and heading of docs/',
			brokenMoreInfoLinks,
		],
	])('%s (every .md of the repo)', (_claim, problems) => {
		expect(files).toEqual(
			expect.arrayContaining(['README.md', 'docs/api.md', 'nodes/shared/README.md']),
		);
		expect(problems()).toEqual([]);
	});
});
