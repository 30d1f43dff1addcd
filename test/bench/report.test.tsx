import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	type BenchResults,
	median,
	memorySection,
	ratio,
	renderResults,
	SUMMARY_END,
	SUMMARY_START,
	upsertMemorySection,
} from '../../bench/report';

const dir = mkdtempSync(path.join(tmpdir(), 'memory-section-'));
const memoryFile = path.join(dir, 'memory-results.md');
const resultsFile = path.join(dir, 'results.md');

function writeMemoryResults(figure: string): void {
	writeFileSync(
		memoryFile,
		`# Memory\n\nWritten by \`npm run bench -- --memory\` on DAY in 9 s. Re-run it to refresh.\n\n${SUMMARY_START}\n| a | ${figure} |\n${SUMMARY_END}\n\nmore\n`,
	);
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
		expect(text).toContain('Written by `npm run bench -- --memory` on DAY in 9 s. The method');
		expect(text).toContain('[memory-results.md](memory-results.md)');
	});

	it('is empty while bench --memory has not run', () => {
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

describe('results.md while a bench runs, and after a section failed', () => {
	const run = {
		startedAt: new Date('2026-11-24T12:00:00Z'),
		durationSeconds: 60,
		command: 'npm run bench',
		loadBefore: '1',
		loadAfter: '1',
		machine: 'test',
	};
	const signing = [
		{
			name: 'signing a list request, as the credential does',
			medianUs: 10,
			minUs: 9,
			maxUs: 12,
			callsPerRound: 100,
			rounds: 5,
		},
	];

	it('keeps the sections that ended, says why one failed and which have not run', () => {
		const results: BenchResults = {
			run,
			rounds: 5,
			concurrent: 'node-100',
			ratePerSecond: 20,
			signing,
			createRecovery:
				'## Creates when answers are lost\n\n| Concurrent Requests | tickets |\n|---|---:|\n| 16 | 1,000 |',
			violations: [],
			failures: [
				{
					section: 'Real n8n',
					reason: 'Error: n8n execute benchReturnAll failed: exit code 1\nstderr: out of memory',
				},
			],
			pending: ['Return All and Limit'],
		};
		const text = renderResults(results);
		expect(text).toContain(
			'| Real n8n: **failed** | Error: n8n execute benchReturnAll failed: exit code 1 | no figures | **not met** |',
		);
		expect(text).toContain(
			'**Real n8n failed; no figures.** Why:\n\n```\nError: n8n execute benchReturnAll failed: exit code 1\nstderr: out of memory\n```',
		);
		expect(text).toContain('| Return All and Limit | not run yet |');
		expect(text).toContain('| signing one request (signRequestOptions) | 10.00 µs |');
		expect(text).toContain(
			'| signing a list request, as the credential does | 10.00 | 9.00 | 12.00 | 100 × 5 |',
		);
		expect(text).toContain(
			'## Creates when answers are lost (bench/createRecovery.tsx)\n\n| Concurrent Requests | tickets |\n|---|---:|\n| 16 | 1,000 |',
		);
		expect(text).not.toContain('lost no item');
	});
});
