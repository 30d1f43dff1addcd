import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { PackageDirectoryLoader } from 'n8n-core';
import {
	NodeHelpers,
	type ICredentialType,
	type INodeType,
	type INodeTypes,
	type IVersionedNodeType,
} from 'n8n-workflow';

import { BASE_NODE_STAND_INS } from './baseNodeStandIns';
import { Items } from './nodes/Items';
import { SignedRequest } from './nodes/SignedRequest';
import { repoRoot } from './repoPath';

export const PACKAGE_NAME = 'n8n-nodes-support-ticket';

/** Node and credential types as n8n has them once the package is installed. */
export interface PackageTypes {
	nodeTypes: INodeTypes;
	credentialTypes: Map<string, ICredentialType>;
	/** Node types known by name; `addNodeTypes` adds to it. */
	byName: Map<string, INodeType | IVersionedNodeType>;
}

let loaded: Promise<PackageTypes> | undefined;

// dist/ loaded by n8n-core's PackageDirectoryLoader, as n8n loads a community package (a wrong path fails here too),
// plus the stand-ins (baseNodeStandIns.tsx) and the `harness.*` test nodes.
export function loadPackageTypes(): Promise<PackageTypes> {
	loaded ??= load();
	return loaded;
}

async function load(): Promise<PackageTypes> {
	assertDistBuilt();
	const loader = new PackageDirectoryLoader(repoRoot());
	await loader.loadAll();
	const byName = new Map<string, INodeType | IVersionedNodeType>();
	for (const [name, { type }] of Object.entries(loader.nodeTypes)) {
		byName.set(name.includes('.') ? name : `${PACKAGE_NAME}.${name}`, type);
	}
	for (const [name, type] of Object.entries(BASE_NODE_STAND_INS)) byName.set(name, type);
	byName.set('harness.signedRequest', new SignedRequest());
	byName.set('harness.items', new Items());

	const credentialTypes = new Map<string, ICredentialType>();
	for (const [name, { type }] of Object.entries(loader.credentialTypes))
		credentialTypes.set(name, type);

	const nodeTypes: INodeTypes = {
		getByName(nodeType) {
			const type = byName.get(nodeType);
			if (!type) throw new Error(`Unknown node type ${nodeType}`);
			return type;
		},
		getByNameAndVersion(nodeType, version) {
			return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
		},
		getKnownTypes() {
			return {};
		},
	};
	return { nodeTypes, credentialTypes, byName };
}

/** Tests run from source, the package from dist/: a missing or older dist/ fails with the fix. */
function assertDistBuilt(): void {
	const root = repoRoot();
	const { n8n } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	const built = [...n8n.nodes, ...n8n.credentials].map((file) => path.join(root, file));
	const missing = built.find((file) => !existsSync(file));
	if (missing)
		throw new Error(`${path.relative(root, missing)} is missing: run npm run build first`);
	const builtAt = Math.min(...built.map((file) => statSync(file).mtimeMs));
	const newer = ['nodes', 'credentials']
		.flatMap((dir) =>
			readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).map((file) =>
				path.join(dir, file),
			),
		)
		.find((file) => /\.(ts|json)$/.test(file) && statSync(path.join(root, file)).mtimeMs > builtAt);
	if (newer) throw new Error(`${newer} changed after dist/ was built: run npm run build first`);
}

/** More node types for this test file (jest gives each file its own registry); they replace those of the same name. */
export async function addNodeTypes(
	types: Record<string, INodeType | IVersionedNodeType>,
): Promise<void> {
	const { byName } = await loadPackageTypes();
	for (const [name, type] of Object.entries(types)) byName.set(name, type);
}
