import type { IDataObject, INode } from 'n8n-workflow';

import type { WorkflowJson } from './runWorkflow';

export const CREDENTIALS_REF = { supportTicketApi: { id: 'harness', name: 'Support Ticket (sandbox)' } };

const trigger: INode = {
	id: 'trigger',
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** Manual Trigger → one node: the smallest workflow that runs a node through the engine. */
export function singleNodeWorkflow(type: string, parameters: IDataObject, extra: Partial<INode> = {}): WorkflowJson {
	const node: INode = {
		id: 'node',
		name: 'Node',
		type,
		typeVersion: 1,
		position: [220, 0],
		parameters: parameters as INode['parameters'],
		credentials: CREDENTIALS_REF,
		...extra,
	};
	return {
		nodes: [trigger, node],
		connections: { Start: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } },
	};
}

/** Manual Trigger → a node that turns into the given items → the node under test. */
export function itemsWorkflow(items: IDataObject[], type: string, parameters: IDataObject, extra: Partial<INode> = {}): WorkflowJson {
	const base = singleNodeWorkflow(type, parameters, extra);
	const source: INode = {
		id: 'items',
		name: 'Items',
		type: 'harness.items',
		typeVersion: 1,
		position: [110, 0],
		parameters: { json: JSON.stringify(items) },
	};
	return {
		nodes: [base.nodes[0], source, base.nodes[1]],
		connections: {
			Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: 'Node', type: 'main', index: 0 }]] },
		},
	};
}
