import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	folderSize,
	formatBytes,
	formatDuration,
	progressLine,
	reportProgress,
} from './installProgress';

describe('install progress', () => {
	it('says phase, elapsed time and size', () => {
		expect(formatDuration(45_400)).toBe('45 s');
		expect(formatDuration(135_000)).toBe('2 min 15 s');
		expect(formatBytes(380e6)).toBe('380 MB');
		expect(formatBytes(1.44e9)).toBe('1.4 GB');
		expect(progressLine('installing n8n 2.41.1', 135_000, 1.4e9)).toBe(
			'installing n8n 2.41.1: 2 min 15 s, 1.4 GB so far',
		);
		expect(progressLine('installing n8n 2.41.1', 60_000, 4096)).toBe(
			'installing n8n 2.41.1: 1 min 0 s, resolving dependencies',
		);
		expect(progressLine('building sqlite3', 45_000)).toBe('building sqlite3: 45 s');
	});

	it('measures a folder as du does', async () => {
		const folder = mkdtempSync(path.join(tmpdir(), 'progress-'));
		try {
			mkdirSync(path.join(folder, 'a', 'b'), { recursive: true });
			writeFileSync(path.join(folder, 'one'), Buffer.alloc(1000));
			writeFileSync(path.join(folder, 'a', 'b', 'two'), Buffer.alloc(2345));
			const size = await folderSize(folder);
			// Allocated blocks: at least the bytes written, at most a few blocks more.
			expect(size).toBeGreaterThanOrEqual(3345);
			expect(size).toBeLessThanOrEqual(3345 + 2 * 65536);
			expect(await folderSize(path.join(folder, 'absent'))).toBe(0);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});

	describe('while a step runs', () => {
		beforeEach(() => jest.useFakeTimers());
		afterEach(() => jest.useRealTimers());

		it('logs one line per interval, and none once stopped', async () => {
			const lines: string[] = [];
			const stop = reportProgress(
				'building sqlite3',
				(line) => lines.push(line),
				undefined,
				15_000,
			);
			await jest.advanceTimersByTimeAsync(14_999);
			expect(lines).toEqual([]);
			await jest.advanceTimersByTimeAsync(15_001);
			expect(lines).toEqual(['building sqlite3: 15 s', 'building sqlite3: 30 s']);
			stop();
			await jest.advanceTimersByTimeAsync(60_000);
			expect(lines).toHaveLength(2);
		});
	});
});
