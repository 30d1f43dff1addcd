import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS } from '../transport/apiRequest';

/** The "Options" collection every node and operation ends with: the settings most users leave alone. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

/** An hour: longer than any answer worth waiting for, short enough to end a run that is stuck. */
const MAX_TIMEOUT_MS = 3_600_000;

/** Options → Timeout of every operation of the action node; the poll trigger and the list search use the default. */
export const timeoutOption: INodeProperties = {
	displayName: 'Timeout',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_TIMEOUT_MS, numberPrecision: 0 },
	default: DEFAULT_TIMEOUT_MS,
	description:
		'How long to wait for the service to answer one request, in milliseconds (60000 is one minute). A read that gets no answer in time is tried again like a dropped connection; for a create, the node first looks whether the service made the record, and sends it again only if not.',
};

/** Options → Timeout of one item, checked before any request is sent. */
export function readTimeout(ctx: IExecuteFunctions, itemIndex: number): number {
	const value = ctx.getNodeParameter('options.timeout', itemIndex, DEFAULT_TIMEOUT_MS) as unknown;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
		throw new NodeOperationError(ctx.getNode(), `Timeout must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, not ${JSON.stringify(value)}`, {
			description: `Set Options → Timeout to e.g. ${DEFAULT_TIMEOUT_MS} (one minute), or remove it to use that default.`,
			itemIndex,
		});
	}
	return value;
}
