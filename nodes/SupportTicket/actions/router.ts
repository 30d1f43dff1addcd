import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { toNodeError } from '../helpers/toNodeError';
import * as customer from './customer/Customer.resource';
import * as reply from './reply/Reply.resource';
import * as ticket from './ticket/Ticket.resource';

type Operation = (this: IExecuteFunctions, itemIndex: number) => Promise<IDataObject[]>;

const operations: Record<string, Record<string, { execute: Operation }>> = {
	ticket: { create: ticket.create, get: ticket.get, getAll: ticket.getAll, update: ticket.update },
	reply: { create: reply.create, getAll: reply.getAll },
	customer: { create: customer.create, get: customer.get, getAll: customer.getAll, update: customer.update },
};

/**
 * The one item loop of the node: every operation handles a single item; pairing of output to
 * input and "continue on fail" live here, once. Items are processed one after another, so a
 * batch of creates is sent in order and each is sent once.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const resource = this.getNodeParameter('resource', itemIndex) as string;
		const operation = this.getNodeParameter('operation', itemIndex) as string;
		try {
			const handler = operations[resource]?.[operation];
			if (!handler) {
				throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not known for "${resource}"`, {
					itemIndex,
				});
			}
			const results = await handler.execute.call(this, itemIndex);
			for (const json of results) returnData.push({ json, pairedItem: { item: itemIndex } });
		} catch (error) {
			if (this.continueOnFail()) {
				const { message, description } = error as { message: string; description?: string };
				returnData.push({
					json: { error: message, ...(description ? { description } : {}) },
					pairedItem: { item: itemIndex },
				});
				continue;
			}
			throw toNodeError(this.getNode(), error, itemIndex);
		}
	}
	return [returnData];
}
