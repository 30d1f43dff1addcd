import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { median, memorySection, ratio, SUMMARY_END, SUMMARY_START, upsertMemorySection } from '../../bench/report';

const dir = mkdtempSync(path.join(tmpdir(), 'memory-section-'));
const memoryFile = path.join(dir, 'memory-results.md');
const resultsFile = path.join(dir, 'results.md');

function writeMemoryResults(figure: string): void {
	writeFileSync(memoryFile, `# Memory\n\nWritten by \`npm run bench:memory\` on DAY in 9 s. Re-run it to refresh.\n\n${SUMMARY_START}\n| a | ${figure} |\n${SUMMARY_END}\n\nmore\n`);
}

describe('the memory section of results.md', () => {
	it('is appended once, then replaced in place when the figures change', () => {
		writeFileSync(resultsFile, '# Benchmarks\n\nfigures\n');
		writeMemoryResults('1');
		upsertMemorySection(resultsFile, memoryFile);
		writeMemoryResults('2');
		upsertMemorySection(resultsFile, memoryFile);
		const text = readFileSync(resultsFile, 'utf8');
		expect(text.startsWith('# Benchmarks\n\nfigures\n\n<!-- memory:start -->')).toBe(true);
		expect(text.match(/memory:start/g)).toHaveLength(1);
		expect(text).toContain('| a | 2 |');
		expect(text).not.toContain('| a | 1 |');
		expect(text).toContain('Written by `npm run bench:memory` on DAY in 9 s. The method');
		expect(text).toContain('[memory-results.md](memory-results.md)');
	});

	it('is empty while bench:memory has not run', () => {
		expect(memorySection(path.join(dir, 'missing.md'))).toBe('');
	});
});

describe('median', () => {
	it('takes the middle of an odd count and the mean of the two middles of an even count, unsorted input', () => {
		expect(median([5, 1, 3])).toBe(3);
		expect(median([4, 1, 3, 2])).toBe(2.5);
		expect(median([])).toBeNaN();
	});

	it('ratio of zero is not a number, not Infinity', () => {
		expect(ratio(3, 2)).toBe(1.5);
		expect(ratio(1, 0)).toBeNaN();
	});
});
