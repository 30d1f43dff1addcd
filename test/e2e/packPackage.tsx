import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { repoRoot } from '../harness/repoPath';
import { runChecked } from './n8n/run';

export interface PackedPackage {
	tarball: string;
	version: string;
}

/** `npm pack` of the checkout, what `npm publish` would upload (dist/ must be built). */
export async function packPackage(): Promise<PackedPackage> {
	const root = repoRoot();
	const destination = mkdtempSync(path.join(tmpdir(), 'support-ticket-pack-'));
	const { stdout } = await runChecked(
		'npm',
		['pack', '--json', '--pack-destination', destination],
		{ cwd: root },
	);
	const [packed] = JSON.parse(stdout) as Array<{
		filename: string;
		version: string;
		files: Array<{ path: string }>;
	}>;
	if (!packed.files.some((file) => file.path.startsWith('dist/nodes/'))) {
		throw new Error('the packed package has no dist/nodes: run `npm run build` first');
	}
	return { tarball: path.join(destination, packed.filename), version: packed.version };
}

export function removePackedPackage(packed: PackedPackage): void {
	rmSync(path.dirname(packed.tarball), { recursive: true, force: true });
}
