import { randomUUID } from 'node:crypto';
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import {
	createRunExecutionData,
	Workflow,
	type ExecutionError,
	type ICredentialDataDecryptedObject,
	type INode,
	type INodeExecutionData,
	type IConnections,
	type IRun,
	type IWorkflowBase,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { additionalData } from './additionalData';
import { CredentialsHelper } from './CredentialsHelper';
import { loadPackageTypes } from './packageTypes';

export interface WorkflowJson {
	name?: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowBase['settings'];
	staticData?: IWorkflowBase['staticData'];
}

export interface WorkflowRun {
	/** Undefined when n8n refused to start the run (parameter issues). */
	run: IRun | undefined;
	/** The workflow's error, as n8n would show it on the failed node. */
	error: ExecutionError | undefined;
	/** Items a node produced on its first output (first run), without the engine's extras. */
	output(nodeName: string): INodeExecutionData[];
	credentialsHelper: CredentialsHelper;
}

/** A manual run from the start node by default; a trigger's run starts from the trigger with its items, as n8n does. */
export interface RunStart {
	mode?: WorkflowExecuteMode;
	nodeName?: string;
	data?: INodeExecutionData[][];
	/** n8n numbers executions per instance: two instances both have an execution "1". */
	executionId?: string;
}

/** A workflow JSON through n8n-core's WorkflowExecute with the package from dist/; requests go over real HTTP. */
export async function runWorkflow(
	workflowJson: WorkflowJson,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	start: RunStart = {},
): Promise<WorkflowRun> {
	const mode = start.mode ?? 'manual';
	const { nodeTypes, credentialTypes } = await loadPackageTypes();
	const credentialsHelper = new CredentialsHelper(credentialTypes, credentials);
	const workflowData: IWorkflowBase = {
		id: 'harness',
		name: workflowJson.name ?? 'harness workflow',
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: workflowJson.nodes,
		connections: workflowJson.connections,
		settings: workflowJson.settings ?? {},
		staticData: workflowJson.staticData,
	};
	const workflow = new Workflow({ ...workflowData, nodeTypes });

	const hooks = new ExecutionLifecycleHooks(mode, `harness-${Date.now()}`, workflowData);
	let finish: (run: IRun) => void = () => undefined;
	const finished = new Promise<IRun>((resolve) => (finish = resolve));
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => finish(fullRunData));

	// n8n gives every execution an id (nodes derive per-execution values from it).
	const data = additionalData(credentialsHelper, {
		hooks,
		executionId: start.executionId ?? randomUUID(),
	});

	const startNode = start.nodeName ? workflow.getNode(start.nodeName) : workflow.getStartNode();
	if (!startNode) throw new Error('The workflow has no start node');
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{ node: startNode, data: { main: start.data ?? [[{ json: {} }]] }, source: null },
			],
		},
	});

	try {
		await new WorkflowExecute(data, mode, runExecutionData).processRunExecutionData(workflow);
	} catch (error) {
		// n8n refuses a manual run whose nodes have parameter issues (a required field left empty,
		// an ID that fails its pattern) before any node runs: that is what the user sees, too.
		if ((error as Error).name !== 'WorkflowHasIssuesError') throw error;
		return {
			run: undefined,
			error: error as ExecutionError,
			credentialsHelper,
			output() {
				throw error;
			},
		};
	}
	const run = await finished;
	return {
		run,
		error: run.data.resultData.error,
		credentialsHelper,
		output(nodeName) {
			const taskData = run.data.resultData.runData[nodeName]?.[0];
			if (!taskData) throw new Error(`Node "${nodeName}" did not run`);
			if (taskData.error) throw taskData.error;
			return taskData.data?.main[0] ?? [];
		},
	};
}
