import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { memorySection, SUMMARY_END, SUMMARY_START, upsertMemorySection } from '../../bench/memorySection';

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
