// Counts the README states in words, checked against what they count so they cannot drift.
import { readdirSync, readFileSync } from 'node:fs';

import { repoPath } from '../harness';

const NUMBER_WORDS = [
	'zero',
	'one',
	'two',
	'three',
	'four',
	'five',
	'six',
	'seven',
	'eight',
	'nine',
	'ten',
	'eleven',
	'twelve',
	'thirteen',
	'fourteen',
	'fifteen',
	'sixteen',
	'seventeen',
	'eighteen',
	'nineteen',
	'twenty',
];

/** The number a README sentence spells out ("Ten", "four"); digits as they are. */
function numberIn(text: string, pattern: RegExp): number[] {
	const match = pattern.exec(text);
	if (!match)
		throw new Error(`the README no longer says ${pattern.source}: update this test with it`);
	return match
		.slice(1)
		.map((word) => (/^\d+$/.test(word) ? Number(word) : NUMBER_WORDS.indexOf(word.toLowerCase())));
}

const readme = readFileSync(repoPath('README.md'), 'utf8').replace(/\s+/g, ' ');
const examples = readdirSync(repoPath('examples')).filter((name) => name.endsWith('.json'));
/** The files scripts/demo.tsx loads: quoted names (its closing message names others in backquotes). */
const demoExamples = new Set(
	[...readFileSync(repoPath('scripts', 'demo.tsx'), 'utf8').matchAll(/'([\w-]+\.json)'/g)].map(
		(match) => match[1],
	),
);
const usesDataTables = (name: string) =>
	readFileSync(repoPath('examples', name), 'utf8').includes('"n8n-nodes-base.dataTable"');

describe('counts in the README', () => {
	it('the examples the demo runs', () => {
		const [count] = numberIn(readme, /the (\w+) example workflows that need no Data Table/);
		expect(demoExamples.size).toBeGreaterThan(0);
		expect(count).toBe(demoExamples.size);
	});

	it('the examples that keep a copy, and of those the ones in Data Tables', () => {
		const [more, inDataTables] = numberIn(
			readme,
			/(\w+) more examples keep a copy, (\w+) in \*\*n8n Data Tables\*\*/,
		);
		expect(more).toBe(examples.filter((name) => !demoExamples.has(name)).length);
		expect(inDataTables).toBe(examples.filter(usesDataTables).length);
	});

	it('every example is linked from the README', () => {
		expect(examples.filter((name) => !readme.includes(`(examples/${name})`))).toEqual([]);
	});
});
