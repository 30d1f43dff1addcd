import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { checkBuildTools } from './buildTools';
import { cacheRoot, installAtomically, isInstalled } from './cache';
import { ensureNode, type NodeRuntime, type NodeVersion } from './nodeRuntime';
import { runChecked } from './run';

/** How one n8n version is installed and run here (facts from shared/notes/real-n8n.md). */
export interface N8nTarget {
	version: string;
	node: NodeVersion;
	/** npm `overrides` of the runtime folder's package.json. */
	overrides?: Record<string, string>;
	/** Environment this version needs at run time. */
	env: Record<string, string>;
}

export const N8N_TARGETS: Record<string, N8nTarget> = {
	// n8n 2.x requires Node >= 24; 2.41.3 (newest) lacks @n8n/* dependencies on this registry.
	'2.41.1': {
		version: '2.41.1',
		node: '24.21.0',
		env: {
			N8N_DISABLED_MODULES:
				'mcp-registry,agents,instance-ai,chat-hub,workflow-builder,promotions,insights',
		},
	},
	// The newest 1.x, on the machine's Node 20: self-hosted installs that have not upgraded.
	'1.123.81': {
		version: '1.123.81',
		node: 'system',
		// Its xlsx dependency points at a CDN this network cannot reach; the registry mirror is the same code.
		overrides: { xlsx: 'npm:@e965/xlsx@0.20.3' },
		env: { N8N_EXPRESSION_ENGINE: 'legacy' },
	},
};

export const PRIMARY_N8N_VERSION = '2.41.1';

/** Keeps n8n from phoning home or nagging, and makes it start the same way every time. */
const QUIET_ENV: Record<string, string> = {
	N8N_DIAGNOSTICS_ENABLED: 'false',
	N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
	N8N_TEMPLATES_ENABLED: 'false',
	N8N_PERSONALIZATION_ENABLED: 'false',
	N8N_VERIFIED_PACKAGES_ENABLED: 'false',
	N8N_DYNAMIC_BANNERS_ENABLED: 'false',
	N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
	N8N_HIRING_BANNER_ENABLED: 'false',
	DB_TYPE: 'sqlite',
};

/** An installed n8n, ready to run with `node n8nBin ...` and `env`. */
export interface N8nInstall {
	version: string;
	/** The cached runtime folder (holds node_modules/n8n). */
	dir: string;
	node: NodeRuntime;
	nodeBin: string;
	n8nBin: string;
	/** Base environment for every n8n process of this version (no user folder yet). */
	env: NodeJS.ProcessEnv;
}

function runtimeEnvironment(node: NodeRuntime): NodeJS.ProcessEnv {
	// The caller's environment without npm's and n8n's own variables, which would leak into the child.
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([key]) => !/^(npm_|N8N_|DB_|INIT_CWD$)/i.test(key)),
	);
	env.PATH = `${node.binDir}${path.delimiter}${env.PATH ?? ''}`;
	// node-gyp builds native modules for the Node that will run them.
	if (node.headersDir) env.npm_config_nodedir = node.headersDir;
	return env;
}

function cacheName(target: N8nTarget, nodeVersion: string): string {
	const nodeKey =
		target.node === 'system' ? `node${nodeVersion.split('.')[0]}` : `node${nodeVersion}`;
	return `n8n-${target.version}-${nodeKey}`;
}

async function installInto(
	dir: string,
	target: N8nTarget,
	node: NodeRuntime,
	log: (line: string) => void,
): Promise<void> {
	const env = { ...runtimeEnvironment(node), JOBS: '2' };
	const manifest = {
		name: 'n8n-runtime',
		version: '0.0.0',
		private: true,
		description: `n8n ${target.version} for the end-to-end tests of n8n-nodes-support-ticket`,
		dependencies: { n8n: target.version },
		...(target.overrides ? { overrides: target.overrides } : {}),
	};
	writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, '\t')}\n`);
	// Install scripts would try to download prebuilt binaries (kafka, sqlite3) from outside the
	// registry: skip them all, then build the one native module n8n needs, sqlite3, from source.
	const npm = async (phase: string, args: string[], minutes: number): Promise<void> => {
		log(`${phase} …`);
		await runChecked('npm', [...args, '--loglevel=error'], {
			cwd: dir,
			env,
			timeoutMs: minutes * 60_000,
		});
	};
	await npm(
		`installing n8n ${target.version} (Node ${node.version})`,
		['install', '--no-audit', '--no-fund', '--ignore-scripts', '--save-exact'],
		30,
	);
	await npm('building sqlite3 from source', ['rebuild', 'sqlite3'], 20);
}

/** n8n `version` in the cache with the Node it needs (first call: minutes); interrupted installs are never reused. */
export async function ensureN8n(
	version: string,
	log: (line: string) => void = () => undefined,
): Promise<N8nInstall> {
	const target = N8N_TARGETS[version];
	if (!target)
		throw new Error(
			`n8n ${version} is not a tested target (known: ${Object.keys(N8N_TARGETS).join(', ')})`,
		);
	// Before any download: the install ends in a native build that fails late without these tools.
	const expectedNode = target.node === 'system' ? process.versions.node : target.node;
	if (!isInstalled(path.join(cacheRoot(), cacheName(target, expectedNode)))) checkBuildTools();
	const node = await ensureNode(target.node, log);
	const dir = path.join(cacheRoot(), cacheName(target, node.version));
	let installed = false;
	await installAtomically(dir, async (tempDir) => {
		installed = true;
		log(`installing n8n ${version} into ${dir} (first run only: several minutes and a few GB)`);
		await installInto(tempDir, target, node, log);
	});
	log(installed ? `n8n ${version} installed: ${dir}` : `n8n ${version} from the cache: ${dir}`);
	return {
		version,
		dir,
		node,
		nodeBin: node.nodeBin,
		n8nBin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		env: { ...runtimeEnvironment(node), ...QUIET_ENV, ...target.env },
	};
}
