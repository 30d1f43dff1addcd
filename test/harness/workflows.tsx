import type { IConnections, IDataObject, INode } from 'n8n-workflow';

import type { WorkflowJson } from './runWorkflow';

export const CREDENTIALS_REF = {
	supportTicketApi: { id: 'harness', name: 'Support Ticket (sandbox)' },
};

/** A node as a saved workflow holds it: version 1, using the package's credential; `extra` sets or replaces the rest. */
export function workflowNode(
	name: string,
	type: string,
	parameters: IDataObject,
	extra: Partial<INode> = {},
): INode {
	const node: INode = {
		id: name,
		name,
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
		credentials: CREDENTIALS_REF,
		...extra,
	};
	// `credentials: undefined` is a node without any: saved workflows have no key for it.
	if (!node.credentials) delete node.credentials;
	return node;
}

/** The nodes one after another, each one's output feeding the next. */
export function chainWorkflow(...nodes: INode[]): WorkflowJson {
	const connections: IConnections = {};
	nodes
		.slice(1)
		.forEach(
			(next, i) =>
				(connections[nodes[i].name] = { main: [[{ node: next.name, type: 'main', index: 0 }]] }),
		);
	return { nodes, connections };
}

const trigger = workflowNode(
	'Start',
	'n8n-nodes-base.manualTrigger',
	{},
	{ id: 'trigger', credentials: undefined },
);

/** Manual Trigger → one node: the smallest workflow that runs a node through the engine. */
export function singleNodeWorkflow(
	type: string,
	parameters: IDataObject,
	extra: Partial<INode> = {},
): WorkflowJson {
	return chainWorkflow(
		trigger,
		workflowNode('Node', type, parameters, { id: 'node', position: [220, 0], ...extra }),
	);
}

/** Manual Trigger → a node that turns into the given items → the node under test. */
export function itemsWorkflow(
	items: IDataObject[],
	type: string,
	parameters: IDataObject,
	extra: Partial<INode> = {},
): WorkflowJson {
	const source = workflowNode(
		'Items',
		'harness.items',
		{ json: JSON.stringify(items) },
		{ id: 'items', position: [110, 0], credentials: undefined },
	);
	return chainWorkflow(
		trigger,
		source,
		workflowNode('Node', type, parameters, { id: 'node', position: [220, 0], ...extra }),
	);
}
