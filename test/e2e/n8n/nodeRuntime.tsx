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
	/** Headers for native builds (npm_config_nodedir); without them node-gyp downloads the running Node's. */
	headersDir?: string;
	/** The cache folder it was unpacked into; none for the running Node. */
	cacheDir?: string;
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
	return {
		version: process.versions.node,
		binDir: path.dirname(nodeBin),
		nodeBin,
		headersDir: path.dirname(path.dirname(nodeBin)),
	};
}

function unavailable(version: string, what: string): Error {
	const major = version.split('.')[0];
	return new Error(
		`Node ${version} for ${process.platform}-${process.arch} is not on the npm registry (${what}).\n` +
			`Install Node ${major} (nodejs.org, nvm, Homebrew…) and run this again with it: a running Node ${major} is used as it is.`,
	);
}

// The running Node when it is that version; else the registry's `node-<os>-<arch>` package (`npm pack`, then
// `package/bin/node`), cached (as .ci/run does); where there is none for this machine, a running Node of the same major.
export async function ensureNode(
	version: NodeVersion,
	log: (line: string) => void = () => undefined,
): Promise<NodeRuntime> {
	if (version === 'system' || version === process.versions.node) return systemRuntime();
	const sameMajor = process.versions.node.split('.')[0] === version.split('.')[0];
	const os = ({ linux: 'linux', darwin: 'darwin', win32: 'win' } as Record<string, string>)[
		process.platform
	];
	if (!os || !['x64', 'arm64'].includes(process.arch)) {
		if (sameMajor) return systemRuntime();
		throw unavailable(version, 'Node packages exist for Linux, macOS and Windows on x64 or arm64');
	}
	const windows = process.platform === 'win32';
	const name = `node-${os}-${process.arch}`;
	const binPath = windows ? 'bin/node.exe' : 'bin/node';
	const dir = path.join(cacheRoot(), `node-${version}`);
	const nodeBin = path.join(dir, 'package', binPath);
	// Windows' package has no headers: node-gyp downloads them.
	const runtime: NodeRuntime = {
		version,
		cacheDir: dir,
		binDir: path.dirname(nodeBin),
		nodeBin,
		headersDir: windows ? undefined : path.join(dir, 'package'),
	};
	// .ci/run unpacks the same folder without a marker: accept it when the binary answers.
	if (!isInstalled(dir) && existsSync(nodeBin) && reportedVersion(nodeBin) === version)
		return runtime;
	try {
		await installAtomically(dir, async (tempDir) => {
			log(`downloading Node ${version} (${name} from the npm registry) …`);
			await runChecked('npm', ['pack', `${name}@${version}`, '--loglevel=error'], { cwd: tempDir });
			const tarball = readdirSync(tempDir).find((file) => file.endsWith('.tgz'));
			if (!tarball) throw new Error(`npm pack ${name}@${version} produced no tarball`);
			await runChecked('tar', ['xzf', tarball], { cwd: tempDir });
			rmSync(path.join(tempDir, tarball));
			const got = reportedVersion(path.join(tempDir, 'package', binPath));
			if (got !== version)
				throw new Error(`${name}@${version} reports version ${got ?? 'nothing'}`);
		});
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		if (!/\b(E404|ETARGET)\b|No matching version/.test(message)) throw error;
		if (sameMajor) return systemRuntime();
		throw unavailable(version, `no ${name}@${version}`);
	}
	return runtime;
}
