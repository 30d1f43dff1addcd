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
	summaryTable,
	upsertMemorySection,
} from '../../bench/report';
import type { ItemComparison, ItemMeasurement, ItemSide } from '../../bench/items';

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

describe('the Summary row of Concurrent Requests 1,000 against the HTTP Request node', () => {
	const measurement = (side: ItemSide, round: number, wallMs: number): ItemMeasurement => ({
		side,
		round,
		wallMs,
		cpuMs: wallMs,
		maxRssBytes: 0,
		rssBeforeBytes: 0,
		maxRssBeforeBytes: 0,
		heapBeforeBytes: 0,
		heapAfterBytes: 0,
		outputItems: 1000,
		errorItems: 0,
		succeeded: 1000,
		refused: 0,
		duplicates: 0,
		lost: 0,
		created: 1000,
		ratePerSecond: 0,
	});
	const walls = {
		'node-1000': [800, 900],
		'node-100': [1200, 1300],
		'http-request': [1100, 1000],
		'http-request-batch-100': [1000, 1000],
	};
	const comparison: ItemComparison = {
		title: '30 ms latency, up to 1,000 at once',
		operation: 'create',
		count: 1000,
		faults: { latencyMs: 30 },
		sides: Object.keys(walls) as ItemSide[],
		rounds: 2,
		againstFastestHttpRequest: ['node-1000', 'node-100'],
		measurements: Object.entries(walls).flatMap(([side, ms]) =>
			ms.map((wallMs, i) => measurement(side as ItemSide, i + 1, wallMs)),
		),
	};

	it('divides each node side by the fastest batching (lowest median), round by round', () => {
		const text = summaryTable({
			run: {
				startedAt: new Date(0),
				durationSeconds: 1,
				command: 'npm run bench -- --widest-only',
				loadBefore: '1',
				loadAfter: '1',
				machine: 'test',
			},
			rounds: 0,
			concurrent: 'node-100',
			ratePerSecond: 20,
			items: [comparison],
			violations: [],
			failures: [],
			pending: [],
		});
		const label = '1,000 ticket creates, 30 ms latency, up to 1,000 at once';
		const fastest = 'HTTP Request node at its fastest batching (http-request-batch-100)';
		expect(text).toContain(
			`| ${label}: wall time node-1000 ÷ ${fastest} | 0.85 (rounds 0.80–0.90) | ≤ 0.9 | met |`,
		);
		expect(text).toContain(
			`| ${label}: wall time node-100 ÷ ${fastest} | 1.25 (rounds 1.20–1.30) | for reference |  |`,
		);
		const medians = 'http-request 1050, http-request-batch-100 1000';
		expect(text).toContain(
			`| ${label}: HTTP Request node, median wall ms per batching | ${medians} |`,
		);
	});
});
