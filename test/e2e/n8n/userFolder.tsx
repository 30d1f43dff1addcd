import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { N8nInstall } from './n8nInstall';
import { runChecked } from './run';

export const PACKAGE_NAME = 'n8n-nodes-support-ticket';

/** One n8n instance's home: its SQLite database, settings and installed community packages. */
export interface N8nUserFolder {
	install: N8nInstall;
	/** N8N_USER_FOLDER (n8n keeps its data in `<root>/.n8n`). */
	root: string;
	/** Environment of every n8n process that uses this folder. */
	env: NodeJS.ProcessEnv;
}

export interface UserFolderOptions {
	/** Where to create it; default a new temp folder. */
	root?: string;
	encryptionKey?: string;
	/** Extra environment for every process of this instance. */
	env?: Record<string, string>;
}

/** An empty n8n user folder for `install` (no database yet: the first command creates it). */
export function createUserFolder(
	install: N8nInstall,
	options: UserFolderOptions = {},
): N8nUserFolder {
	const root = options.root ?? mkdtempSync(path.join(tmpdir(), `n8n-e2e-${install.version}-`));
	mkdirSync(path.join(root, '.n8n'), { recursive: true });
	return {
		install,
		root,
		env: {
			...install.env,
			N8N_USER_FOLDER: root,
			N8N_ENCRYPTION_KEY: options.encryptionKey ?? 'e2e-encryption-key',
			...options.env,
		},
	};
}

/** A packed package as the Community Nodes screen leaves it (unpacked under .n8n/nodes, listed there); n8n loads it at its next start. */
export async function installCommunityPackage(
	folder: N8nUserFolder,
	tarball: string,
	version: string,
): Promise<void> {
	const nodesDir = path.join(folder.root, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	rmSync(target, { recursive: true, force: true });
	mkdirSync(target, { recursive: true });
	await runChecked('tar', ['xzf', tarball, '-C', target, '--strip-components=1']);
	writeFileSync(
		path.join(nodesDir, 'package.json'),
		`${JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [PACKAGE_NAME]: version } }, null, 2)}\n`,
	);
}

export function removeUserFolder(folder: N8nUserFolder): void {
	rmSync(folder.root, { recursive: true, force: true });
}
