import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The checkout's root, found from wherever the compiled test runs (build/test/...). */
export function repoRoot(): string {
	let dir = __dirname;
	for (;;) {
		const manifest = path.join(dir, 'package.json');
		if (
			existsSync(manifest) &&
			JSON.parse(readFileSync(manifest, 'utf8')).name === 'n8n-nodes-support-ticket'
		) {
			return dir;
		}
		const parent = path.dirname(dir);
		if (parent === dir)
			throw new Error(`No n8n-nodes-support-ticket package.json above ${__dirname}`);
		dir = parent;
	}
}

export function repoPath(...segments: string[]): string {
	return path.join(repoRoot(), ...segments);
}
