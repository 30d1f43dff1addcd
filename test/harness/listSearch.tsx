import { LoadOptionsContext } from 'n8n-core';
import {
	Workflow,
	type ICredentialDataDecryptedObject,
	type INodeListSearchResult,
	type INodeType,
} from 'n8n-workflow';

import { additionalData } from './additionalData';
import { CredentialsHelper } from './CredentialsHelper';
import { loadPackageTypes } from './packageTypes';
import { workflowNode } from './workflows';

/** A node's `listSearch` as the editor calls it for a "From list" picker (n8n-core's LoadOptionsContext). */
export async function listSearch(
	nodeType: string,
	method: string,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { nodeTypes, credentialTypes } = await loadPackageTypes();
	const node = workflowNode('Node', nodeType, {});
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const data = additionalData(new CredentialsHelper(credentialTypes, credentials));
	const context = new LoadOptionsContext(workflow, node, data, 'parameters.ticketId');
	const type = nodeTypes.getByNameAndVersion(nodeType, 1) as INodeType;
	const search = type.methods?.listSearch?.[method];
	if (!search) throw new Error(`${nodeType} has no listSearch method ${method}`);
	return await search.call(context, filter, paginationToken);
}
