import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { cacheRoot, installAtomically, isInstalled } from './cache';
import { formatDuration, reportProgress } from './installProgress';
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
	const prefix = path.dirname(path.dirname(nodeBin));
	return {
		version: process.versions.node,
		binDir: path.dirname(nodeBin),
		nodeBin,
		headersDir: prefix,
	};
}

/** Where the npm registry's Node.js build for one platform is: `npm pack <name>@<version>`, then `package/<binPath>`. */
export interface NodePackage {
	name: string;
	binPath: string;
	/** Whether the package carries the headers node-gyp builds against (Windows' does not: node-gyp downloads them). */
	hasHeaders: boolean;
}

const NODE_PACKAGE_OS: Partial<Record<NodeJS.Platform, string>> = {
	linux: 'linux',
	darwin: 'darwin',
	win32: 'win',
};

/** The npm package with Node.js for `platform`-`arch` (the `node` package's `node-<os>-<arch>` builds). */
export function nodePackageFor(
	platform: NodeJS.Platform,
	arch: string,
	version: string,
): NodePackage {
	const os = NODE_PACKAGE_OS[platform];
	if (!os || !['x64', 'arm64'].includes(arch))
		throw new Error(nodeUnavailableMessage(version, `${platform}-${arch}`));
	const windows = platform === 'win32';
	return {
		name: `node-${os}-${arch}`,
		binPath: windows ? 'bin/node.exe' : 'bin/node',
		hasHeaders: !windows,
	};
}

/** What to do when the registry has no Node `version` for this machine: run with such a Node yourself. */
export function nodeUnavailableMessage(
	version: string,
	machine: string,
	packageName?: string,
): string {
	const major = version.split('.')[0];
	return [
		`Node ${version} for ${machine} is not on the npm registry${packageName ? ` (no ${packageName}@${version})` : ' (Node packages exist for Linux, macOS and Windows on x64 or arm64)'}.`,
		`Install Node ${major} (nodejs.org, nvm, Homebrew…) and run this again with it: a running Node ${major} is used as it is.`,
	].join('\n');
}

function packageMissing(error: unknown): boolean {
	return /\b(E404|ETARGET)\b|No matching version/.test(
		error instanceof Error ? error.message : String(error),
	);
}

// The running Node when it is that version; else the registry's `node-<os>-<arch>` package, cached (as .ci/run does);
// where there is none for this machine, a running Node of the same major.
export async function ensureNode(
	version: NodeVersion,
	platform: NodeJS.Platform = process.platform,
	arch: string = process.arch,
	log: (line: string) => void = () => undefined,
): Promise<NodeRuntime> {
	if (version === 'system' || version === process.versions.node) return systemRuntime();
	const sameMajor = process.versions.node.split('.')[0] === version.split('.')[0];
	let pkg: NodePackage;
	try {
		pkg = nodePackageFor(platform, arch, version);
	} catch (error) {
		if (sameMajor) return systemRuntime();
		throw error;
	}
	const dir = path.join(cacheRoot(), `node-${version}`);
	const nodeBin = path.join(dir, 'package', pkg.binPath);
	const runtime: NodeRuntime = {
		version,
		cacheDir: dir,
		binDir: path.dirname(nodeBin),
		nodeBin,
		headersDir: pkg.hasHeaders ? path.join(dir, 'package') : undefined,
	};
	// .ci/run unpacks the same folder without a marker: accept it when the binary answers.
	if (
		!isInstalled(dir) &&
		existsSync(runtime.nodeBin) &&
		reportedVersion(runtime.nodeBin) === version
	)
		return runtime;
	const phase = `downloading Node ${version} (${pkg.name} from the npm registry)`;
	const started = Date.now();
	let downloaded = false;
	try {
		await installAtomically(dir, async (tempDir) => {
			log(`${phase} …`);
			const stopProgress = reportProgress(phase, log);
			await runChecked('npm', ['pack', `${pkg.name}@${version}`, '--loglevel=error'], {
				cwd: tempDir,
			}).finally(stopProgress);
			const tarball = readdirSync(tempDir).find((name) => name.endsWith('.tgz'));
			if (!tarball) throw new Error(`npm pack ${pkg.name}@${version} produced no tarball`);
			await runChecked('tar', ['xzf', tarball], { cwd: tempDir });
			rmSync(path.join(tempDir, tarball));
			const got = reportedVersion(path.join(tempDir, 'package', pkg.binPath));
			if (got !== version)
				throw new Error(`${pkg.name}@${version} reports version ${got ?? 'nothing'}`);
			downloaded = true;
		});
	} catch (error) {
		if (!packageMissing(error)) throw error;
		if (sameMajor) return systemRuntime();
		throw new Error(nodeUnavailableMessage(version, `${platform}-${arch}`, pkg.name));
	}
	if (downloaded)
		log(`Node ${version} downloaded in ${formatDuration(Date.now() - started)}: ${dir}`);
	return runtime;
}
