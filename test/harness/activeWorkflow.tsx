import { Workflow, type IDataObject, type INodeTypes } from 'n8n-workflow';

import type { WorkflowJson } from './runWorkflow';

const copy = (data: IDataObject) => JSON.parse(JSON.stringify(data)) as IDataObject;

/** Static data as n8n's database keeps it: each call gets a fresh copy, saved back only when marked changed. */
export class StoredStaticData {
	constructor(public current: IDataObject = {}) {
		this.current = copy(current);
	}

	load = () => copy(this.current);

	saveIfChanged(staticData: IDataObject): void {
		if ((staticData as { __dataChanged?: boolean }).__dataChanged) this.current = copy(staticData);
	}
}

/** The Workflow object n8n builds for an active workflow when a trigger fires. */
export const activeWorkflow = (
	json: WorkflowJson,
	nodeTypes: INodeTypes,
	staticData: IDataObject,
) =>
	new Workflow({
		id: 'harness',
		name: json.name ?? 'harness workflow',
		nodes: json.nodes,
		connections: json.connections,
		active: true,
		nodeTypes,
		staticData,
		settings: json.settings ?? {},
	});
