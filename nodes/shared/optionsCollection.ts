import type { INodeProperties } from 'n8n-workflow';

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
