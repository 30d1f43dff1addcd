import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** "45 s", "2 min 15 s". */
export function formatDuration(ms: number): string {
	const seconds = Math.round(ms / 1000);
	return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** "380 MB", "1.4 GB" (decimal units, as file managers and `du -h --si` show them). */
export function formatBytes(bytes: number): string {
	if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
	return `${Math.round(bytes / 1e6)} MB`;
}

/** "installing n8n 2.41.1: 2 min 15 s, 1.4 GB so far" (without a size: "building sqlite3: 45 s"). */
export function progressLine(phase: string, elapsedMs: number, bytes?: number): string {
	// npm writes nothing until it has resolved the whole dependency tree (about 1.5 min for n8n):
	// until then the folder holds a few kB (package.json), which would read "0 MB so far".
	const size =
		bytes === undefined
			? ''
			: bytes < 1e6
				? ', resolving dependencies'
				: `, ${formatBytes(bytes)} so far`;
	return `${phase}: ${formatDuration(elapsedMs)}${size}`;
}

/** Disk space below `dir` as `du` counts it (allocated blocks); links not followed, vanished entries count 0. */
export async function folderSize(dir: string): Promise<number> {
	let total = 0;
	const pending = [dir];
	for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
		const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
		for (const entry of entries) {
			const full = path.join(folder, entry.name);
			if (entry.isDirectory()) pending.push(full);
			else if (entry.isFile())
				total += await lstat(full).then(
					(stat) => (stat.blocks ? stat.blocks * 512 : stat.size),
					() => 0,
				);
		}
	}
	return total;
}

export const PROGRESS_INTERVAL_MS = 15_000;

/** One line per interval while a long step runs (no spinner: the same in a terminal and in CI); call the result when it ends. */
export function reportProgress(
	phase: string,
	log: (line: string) => void,
	dir?: string,
	intervalMs = PROGRESS_INTERVAL_MS,
): () => void {
	const started = Date.now();
	let measuring = false;
	let stopped = false;
	const timer = setInterval(() => {
		if (measuring) return;
		measuring = true;
		void (dir ? folderSize(dir) : Promise.resolve(undefined))
			.then((bytes) => {
				if (!stopped) log(progressLine(phase, Date.now() - started, bytes));
			})
			.finally(() => {
				measuring = false;
			});
	}, intervalMs);
	timer.unref();
	return () => {
		stopped = true;
		clearInterval(timer);
	};
}
