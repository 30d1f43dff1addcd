import { resourceProperties } from '../common/descriptions';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

/** What the router runs, by operation name. */
export const operations = { create, get, getAll, update };

export const description = resourceProperties('ticket', operations, [
	{
		name: 'Create',
		value: 'create',
		description: 'Create a ticket for a customer',
		action: 'Create a ticket',
	},
	{ name: 'Get', value: 'get', description: 'Get a ticket by ID', action: 'Get a ticket' },
	{
		name: 'Get Many',
		value: 'getAll',
		description: 'List tickets, filtered by status or priority, newest first by default',
		action: 'Get many tickets',
	},
	{
		name: 'Update',
		value: 'update',
		description: "Change a ticket's subject, description, priority, status or custom fields",
		action: 'Update a ticket',
	},
]);
