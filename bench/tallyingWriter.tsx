import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import type { TicketTally } from './ticketTally';

/**
 * The destination of a memory measurement, under the name of n8n's No Operation node
 * (`n8n-nodes-base.noOp`), which the import examples use as their "Write Page" placeholder: it
 * passes the items on unchanged, as that node does, and ticks each ticket off in the tally, so
 * the workflows run as shipped while every written ticket is counted. (n8n calls `execute` with
 * the execution context as `this`, so the tally is reached through the closure.)
 */
export function tallyingWriter(tally: TicketTally): INodeType {
	return {
		description: {
			displayName: 'No Operation, do nothing',
			name: 'noOp',
			group: ['organization'],
			version: 1,
			description: 'No Operation (counts the tickets it passes on)',
			defaults: { name: 'No Operation, do nothing' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const items = this.getInputData();
			for (const item of items) tally.add(item.json.id);
			return [items];
		},
	};
}
