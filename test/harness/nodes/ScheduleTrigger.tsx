import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

/**
 * Stands in for n8n's Schedule Trigger (`n8n-nodes-base.scheduleTrigger`) so a workflow that has
 * one loads here. It has no `trigger()`: the harness starts such workflows at their Manual
 * Trigger, and a schedule never fires in-process. If it is run, it emits one item as n8n does.
 */
export class ScheduleTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Schedule Trigger',
		name: 'scheduleTrigger',
		group: ['trigger', 'schedule'],
		version: [1, 1.1, 1.2],
		description: 'Triggers the workflow on a given schedule',
		defaults: { name: 'Schedule Trigger' },
		inputs: [],
		outputs: ['main'],
		properties: [{ displayName: 'Trigger Rules', name: 'rule', type: 'fixedCollection', default: {}, options: [] }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [[{ json: { timestamp: new Date().toISOString() } }]];
	}
}
