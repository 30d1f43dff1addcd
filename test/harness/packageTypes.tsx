import { PackageDirectoryLoader } from 'n8n-core';
import {
	NodeHelpers,
	type ICredentialType,
	type INodeType,
	type INodeTypes,
	type IVersionedNodeType,
} from 'n8n-workflow';

import { Items } from './nodes/Items';
import { ManualTrigger } from './nodes/ManualTrigger';
import { SignedRequest } from './nodes/SignedRequest';
import { StickyNote } from './nodes/StickyNote';
import { Code } from './nodes/Code';
import { If } from './nodes/If';
import { NoOp } from './nodes/NoOp';
import { ScheduleTrigger } from './nodes/ScheduleTrigger';
import { SplitOut } from './nodes/SplitOut';
import { repoRoot } from './repoPath';

export const PACKAGE_NAME = 'n8n-nodes-support-ticket';

/** Node and credential types as n8n has them once the package is installed. */
export interface PackageTypes {
	nodeTypes: INodeTypes;
	credentialTypes: Map<string, ICredentialType>;
	/** Node type names as workflows reference them, e.g. `n8n-nodes-support-ticket.supportTicket`. */
	nodeNames: string[];
}

let loaded: Promise<PackageTypes> | undefined;

/**
 * Loads `dist/` with n8n-core's own PackageDirectoryLoader (what n8n runs for a community package,
 * reading the `n8n` block of package.json), so a wrong dist path or a class name that does not
 * match its file fails here as it would in n8n. Adds test-only node types: stand-ins for the
 * n8n-nodes-base nodes the examples use, a node that sends signed requests, and one that emits
 * given items.
 */
export function loadPackageTypes(): Promise<PackageTypes> {
	loaded ??= load();
	return loaded;
}

async function load(): Promise<PackageTypes> {
	const loader = new PackageDirectoryLoader(repoRoot());
	await loader.loadAll();
	const byName = new Map<string, INodeType | IVersionedNodeType>();
	for (const [name, { type }] of Object.entries(loader.nodeTypes)) {
		byName.set(name.includes('.') ? name : `${PACKAGE_NAME}.${name}`, type);
	}
	byName.set('n8n-nodes-base.manualTrigger', new ManualTrigger());
	byName.set('harness.signedRequest', new SignedRequest());
	byName.set('harness.items', new Items());
	// Stand-ins for the n8n-nodes-base nodes the example workflows use, under n8n's own names.
	byName.set('n8n-nodes-base.stickyNote', new StickyNote());
	byName.set('n8n-nodes-base.if', new If());
	byName.set('n8n-nodes-base.splitOut', new SplitOut());
	byName.set('n8n-nodes-base.noOp', new NoOp());
	byName.set('n8n-nodes-base.code', new Code());
	byName.set('n8n-nodes-base.scheduleTrigger', new ScheduleTrigger());

	const credentialTypes = new Map<string, ICredentialType>();
	for (const [name, { type }] of Object.entries(loader.credentialTypes)) credentialTypes.set(name, type);

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
	return {
		nodeTypes,
		credentialTypes,
		nodeNames: [...byName.keys()].filter((name) => name.startsWith(`${PACKAGE_NAME}.`)),
	};
}
