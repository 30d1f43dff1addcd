import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from '../transport/timeout';

/**
 * The "Options" collection every node and operation ends with: the settings most users leave alone.
 */
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

/**
 * Options → Timeout of every operation of the action node; the poll
 * trigger and the list search use the default.
 */
export const timeoutOption: INodeProperties = {
	displayName: 'Timeout',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_TIMEOUT_MS, numberPrecision: 0 },
	default: DEFAULT_TIMEOUT_MS,
	description:
		'How long to wait for the service to answer one request, in milliseconds. A request ' +
		'without an answer in time is tried again; a create only after checking it was not made.',
};
