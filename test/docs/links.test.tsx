// Every relative link in the docs reaches a file and, with a #anchor, a heading (GitHub's slug); so does every
// `docs/<file>.md#<anchor>` the source names.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import { repoPath } from '../harness';

const root = repoPath();
const inDir = (dir: string) =>
	existsSync(repoPath(dir))
		? readdirSync(repoPath(dir))
				.filter((f) => f.endsWith('.md'))
				.map((f) => join(dir, f))
		: [];
const files = [
	'README.md',
	'CONTRIBUTING.md',
	'CHANGELOG.md',
	...inDir('docs'),
	...inDir('bench'),
	'sandbox/README.md',
	'test/e2e/README.md',
].filter((f) => existsSync(repoPath(f)));

/** GitHub's heading anchor: lowercase, punctuation other than hyphens and spaces removed, spaces → hyphens. */
const slug = (heading: string) =>
	heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\- _]/gu, '')
		.replace(/ /g, '-');

const stripCode = (md: string) => md.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');

const anchorsOf = (file: string) => {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	for (const line of readFileSync(file, 'utf8')
		.replace(/```[\s\S]*?```/g, '')
		.split('\n')) {
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

/** Source folders whose comments and test names point into docs/ as `docs/<file>.md#<anchor>`. */
const SOURCE_DIRS = ['nodes', 'credentials', 'sandbox', 'test', 'bench', 'scripts'];

const sourceFiles = (dir: string): string[] =>
	existsSync(repoPath(dir))
		? readdirSync(repoPath(dir), { withFileTypes: true }).flatMap((entry) => {
				const path = join(dir, entry.name);
				if (entry.isDirectory()) return sourceFiles(path);
				return /\.tsx?$/.test(entry.name) ? [path] : [];
			})
		: [];

const brokenSourceReferences = () => {
	const broken: string[] = [];
	for (const file of SOURCE_DIRS.flatMap(sourceFiles)) {
		for (const m of readFileSync(repoPath(file), 'utf8').matchAll(
			/\bdocs\/([\w-]+\.md)#([\w-]+)/g,
		)) {
			const dest = repoPath('docs', m[1]);
			if (!existsSync(dest) || !anchorsOf(dest).has(m[2])) broken.push(`${file}: ${m[0]}`);
		}
	}
	return broken;
};

describe('documentation links', () => {
	it('slugs headings the way GitHub does', () => {
		expect(slug('Get Many: Return All, Limit, One Page per Run')).toBe(
			'get-many-return-all-limit-one-page-per-run',
		);
		expect(slug('n8n verification: strict mode and the lint layout')).toBe(
			'n8n-verification-strict-mode-and-the-lint-layout',
		);
		expect(slug('End-to-end tests / dev / screenshot')).toBe('end-to-end-tests--dev--screenshot');
	});

	it('checks README, CONTRIBUTING, CHANGELOG, docs/, bench/ and the test READMEs', () => {
		expect(files).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md']));
	});

	it('every relative link points at an existing file and, with #anchor, at a heading there', () => {
		expect(brokenLinks()).toEqual([]);
	});

	it('every docs/<file>.md#<anchor> named in the source points at a heading there', () => {
		expect(brokenSourceReferences()).toEqual([]);
	});
});
