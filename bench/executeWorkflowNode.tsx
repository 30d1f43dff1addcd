import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { runWorkflow, type WorkflowJson } from '../test/harness';
import type { Credentials } from './runImport';

/**
 * Stands in for n8n's Execute Workflow node (`n8n-nodes-base.executeWorkflow`, "Wait For
 * Sub-Workflow Completion" on), for one sub-workflow: runs it in this process as a separate
 * execution (as n8n does outside queue mode), started at `triggerName` with this node's input
 * items, and returns what n8n returns, the output of the sub-workflow's last executed node. The
 * sub-execution's data is dropped once it has ended, as n8n drops it once saved.
 */
export function executeSubWorkflow(subWorkflow: WorkflowJson, triggerName: string, credentials: Credentials): INodeType {
	return {
		description: {
			displayName: 'Execute Workflow',
			name: 'executeWorkflow',
			group: ['transform'],
			version: [1, 1.1, 1.2],
			description: 'Execute another workflow',
			defaults: { name: 'Execute Workflow' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [{ displayName: 'Source', name: 'source', type: 'string', default: 'database' }],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const sub = await runWorkflow(subWorkflow, credentials, { mode: 'integrated', nodeName: triggerName, data: [this.getInputData()] });
			if (sub.error) throw new Error(`sub-workflow failed: ${sub.error.message}`);
			const last = sub.run?.data.resultData.lastNodeExecuted;
			if (!last) throw new Error('the sub-workflow ran no node');
			return [sub.output(last).map((item) => ({ json: item.json, pairedItem: { item: 0 } }))];
		},
	};
}
