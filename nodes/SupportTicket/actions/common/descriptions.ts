import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ID_FIELD_PATTERN } from '../../../shared/parameters/idPattern';
import { optionsCollection, timeoutOption } from '../../../shared/descriptions/optionsCollection';

export function idLocator(
	resource: 'ticket' | 'customer',
	name: string,
	searchMethod: string,
): INodeProperties {
	const label = resource === 'ticket' ? 'Ticket' : 'Customer';
	return {
		displayName: label,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: `The ${resource} to use`,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${resource}...`,
				typeOptions: { searchListMethod: searchMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: resource === 'ticket' ? 'e.g. tkt_1042' : 'e.g. cus_77',
				validation: [
					{
						type: 'regex',
						properties: { regex: ID_FIELD_PATTERN, errorMessage: `Not a valid ${resource} ID` },
					},
				],
			},
		],
	};
}

/**
 * The Operation picker of one resource, then each operation's fields (operations in picker order).
 */
export function resourceProperties(
	resource: string,
	operations: Record<string, { description: INodeProperties[] }>,
	options: INodePropertyOptions[],
): INodeProperties[] {
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options,
			default: 'create',
		},
		...Object.values(operations).flatMap((operation) => operation.description),
	];
}

/**
 * Optional fields of a create ("Additional Fields") or an
 * update ("Update Fields"), added one by one.
 */
export function fieldsCollection(
	use: 'create' | 'update',
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName: use === 'create' ? 'Additional Fields' : 'Update Fields',
		name: use === 'create' ? 'additionalFields' : 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options,
	};
}

export const customFieldsJson: INodeProperties = {
	displayName: 'Custom Fields (JSON)',
	name: 'customFieldsJson',
	type: 'json',
	default: '{}',
	placeholder: 'e.g. {"tags": ["vip"], "external_ref": "CRM-42"}',
	description:
		'Further fields the service accepts, as a JSON object; the ' +
		'fields above take precedence. A number JSON cannot carry exactly ' +
		'(e.g. beyond 9007199254740991) is refused: write it in quotes.',
};

/**
 * Get Many's paging parameters: every page needed in one run,
 * or one page per run for workflows that loop.
 */
export function pagingFields(show: Record<string, string[]>): INodeProperties[] {
	return [
		{
			displayName: 'Pagination',
			name: 'pagination',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show },
			options: [
				{
					name: 'Handled by the Node',
					value: 'auto',
					description:
						'Return all results, or up to a limit, reading every page needed in this run',
				},
				{
					name: 'One Page per Run',
					value: 'onePage',
					description:
						'Return one page (or Pages per Run pages) as one item: ' +
						'data, count, has_more and next_cursor. Loop with an If ' +
						'node on has_more and feed next_cursor back into Cursor.',
				},
			],
			default: 'auto',
		},
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			displayOptions: { show: { ...show, pagination: ['auto'] } },
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			displayOptions: { show: { ...show, pagination: ['auto'], returnAll: [false] } },
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
		},
		{
			displayName: 'Cursor',
			name: 'cursor',
			type: 'string',
			displayOptions: { show: { ...show, pagination: ['onePage'] } },
			default: '',
			placeholder: 'e.g. {{ $json.next_cursor }}',
			description:
				'Where to continue: the next_cursor of the previous page. Empty for the ' +
				'first page. Keep filters, sort and page size the same while looping.',
		},
		{
			displayName: 'Page Size',
			name: 'pageSize',
			type: 'number',
			displayOptions: { show: { ...show, pagination: ['onePage'] } },
			typeOptions: { minValue: 1, maxValue: 100 },
			default: 100,
			description: 'Items per page, at most 100',
		},
		{
			displayName: 'Pages per Run',
			name: 'pagesPerRun',
			type: 'number',
			displayOptions: { show: { ...show, pagination: ['onePage'] } },
			typeOptions: { minValue: 1, maxValue: 100 },
			default: 1,
			description:
				'How many pages to read one after another into the one item, e.g. ' +
				'10 for 1,000 items per run; next_cursor continues after the last',
		},
	];
}

/** Used when Options → Concurrent Requests is not set; chosen from bench/results.md. */
export const DEFAULT_CONCURRENT_REQUESTS = 100;
/** The highest Concurrent Requests: each request on its way holds a connection of its own. */
export const MAX_CONCURRENT_REQUESTS = 1000;

/**
 * Options → Concurrent Requests: the router runs the items
 * of an operation that offers it concurrently.
 */
export const concurrentRequestsOption: INodeProperties = {
	displayName: 'Concurrent Requests',
	name: 'concurrentRequests',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENT_REQUESTS, numberPrecision: 0 },
	default: DEFAULT_CONCURRENT_REQUESTS,
	description:
		'How many input items are sent to the service at once (1: one after ' +
		'another). Output keeps the input order; on 429 or 503 the node slows down.',
};

/** Options of the operations whose items send their own requests, so they can run concurrently. */
export const concurrencyOptions = optionsCollection([concurrentRequestsOption, timeoutOption]);
