import { Workflow, type IDataObject, type INodeTypes } from 'n8n-workflow';

import type { WorkflowJson } from './runWorkflow';

function copy(data: IDataObject): IDataObject {
	return JSON.parse(JSON.stringify(data)) as IDataObject;
}

/** Static data as n8n's database keeps it: each call gets a fresh copy, saved back only when marked changed. */
export class StoredStaticData {
	private saved: IDataObject;

	constructor(initial: IDataObject = {}) {
		this.saved = copy(initial);
	}

	get current(): IDataObject {
		return this.saved;
	}

	load(): IDataObject {
		return copy(this.saved);
	}

	saveIfChanged(staticData: IDataObject): void {
		if ((staticData as { __dataChanged?: boolean }).__dataChanged) this.saved = copy(staticData);
	}
}

/** The Workflow object n8n builds for an active workflow when a trigger fires. */
export function activeWorkflow(
	workflowJson: WorkflowJson,
	nodeTypes: INodeTypes,
	staticData: IDataObject,
): Workflow {
	return new Workflow({
		id: 'harness',
		name: workflowJson.name ?? 'harness workflow',
		nodes: workflowJson.nodes,
		connections: workflowJson.connections,
		active: true,
		nodeTypes,
		staticData,
		settings: workflowJson.settings ?? {},
	});
}
