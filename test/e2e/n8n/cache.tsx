import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** Outside the checkout (a fresh clone must not download 3 GB again), shared with .ci/run's Node 24 download. */
export function cacheRoot(): string {
	return (
		process.env.SUPPORT_TICKET_CACHE || path.join(homedir(), '.cache', 'n8n-nodes-support-ticket')
	);
}

const COMPLETE_MARKER = '.install-complete';
const TEMP_INFIX = '.installing-';

/** A folder counts as installed only once its marker exists (written last, before the rename). */
export function isInstalled(dir: string): boolean {
	return existsSync(path.join(dir, COMPLETE_MARKER));
}

function processIsAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** Temp folders left by interrupted installs (their process is gone) are never reused: remove them. */
function removeAbandonedTempDirs(finalDir: string): void {
	const parent = path.dirname(finalDir);
	const prefix = path.basename(finalDir) + TEMP_INFIX;
	for (const name of readdirSync(parent)) {
		if (!name.startsWith(prefix)) continue;
		const pid = Number(name.slice(prefix.length).split('-')[0]);
		if (!Number.isInteger(pid) || !processIsAlive(pid))
			rmSync(path.join(parent, name), { recursive: true, force: true });
	}
}

// Built in a sibling temp folder and renamed into place, so an interrupted install never looks finished; when another
// process finished the same install first, its result is kept.
export async function installAtomically(
	finalDir: string,
	build: (tempDir: string) => Promise<void>,
): Promise<void> {
	if (isInstalled(finalDir)) return;
	mkdirSync(path.dirname(finalDir), { recursive: true });
	removeAbandonedTempDirs(finalDir);
	const tempDir = `${finalDir}${TEMP_INFIX}${process.pid}-${Date.now()}`;
	mkdirSync(tempDir);
	try {
		await build(tempDir);
		writeFileSync(path.join(tempDir, COMPLETE_MARKER), `${new Date().toISOString()}\n`);
		if (existsSync(finalDir)) {
			if (isInstalled(finalDir)) return;
			// An unfinished install from an older script (no marker): replace it.
			rmSync(finalDir, { recursive: true, force: true });
		}
		renameSync(tempDir, finalDir);
	} finally {
		rmSync(tempDir, { recursive: true, force: true });
	}
}
