import { PollContext } from 'n8n-core';
import {
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INode,
	type INodeExecutionData,
} from 'n8n-workflow';

import { activeWorkflow, StoredStaticData } from './activeWorkflow';
import { additionalData } from './additionalData';
import { CredentialsHelper } from './CredentialsHelper';
import { loadPackageTypes } from './packageTypes';
import { runWorkflow, type WorkflowJson, type WorkflowRun } from './runWorkflow';

export interface PollOutcome {
	/** What `poll()` returned: null when nothing was new. */
	items: INodeExecutionData[] | null;
	/** The workflow run those items started, as n8n starts one per poll with data. */
	execution?: WorkflowRun;
	/** What the trigger logged as warnings during the poll (n8n writes them to its log). */
	warnings: string[];
}

export interface Poller {
	poll(): Promise<PollOutcome>;
	/** The workflow's static data as n8n saved it after the last poll. */
	readonly staticData: IDataObject;
}

/** n8n's polling of an active workflow, one poll at a time: PollContext, the workflow run with the items, static data kept when marked changed. */
export async function createPoller(
	workflowJson: WorkflowJson,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	triggerName: string,
): Promise<Poller> {
	const { nodeTypes, credentialTypes } = await loadPackageTypes();
	const stored = new StoredStaticData(workflowJson.staticData);
	return {
		get staticData() {
			return stored.current;
		},
		async poll() {
			const staticData = stored.load();
			const workflow = activeWorkflow(workflowJson, nodeTypes, staticData);
			const node = workflow.getNode(triggerName) as INode;
			const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
			if (!nodeType.poll) throw new Error(`${node.type} is not a polling node`);
			const data = additionalData(new CredentialsHelper(credentialTypes, credentials));
			const context = new PollContext(workflow, node, data, 'trigger', 'activate');
			const warnings: string[] = [];
			const ignore = () => undefined;
			const logger = {
				error: ignore,
				info: ignore,
				debug: ignore,
				warn: (message: string) => void warnings.push(message),
			};
			Object.defineProperty(context, 'logger', { value: { ...logger, scoped: () => logger } });
			const result = await nodeType.poll.call(context);
			stored.saveIfChanged(staticData);
			if (!result) return { items: null, warnings };
			const execution = await runWorkflow({ ...workflowJson, staticData }, credentials, {
				mode: 'trigger',
				nodeName: triggerName,
				data: result,
			});
			return { items: result[0] ?? [], execution, warnings };
		},
	};
}
