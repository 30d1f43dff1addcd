import { resourceProperties } from '../common/descriptions';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

/** What the router runs, by operation name. */
export const operations = { create, get, getAll, update };

export const description = resourceProperties('customer', operations, [
	{
		name: 'Create',
		value: 'create',
		description: 'Create a customer',
		action: 'Create a customer',
	},
	{ name: 'Get', value: 'get', description: 'Get a customer by ID', action: 'Get a customer' },
	{
		name: 'Get Many',
		value: 'getAll',
		description: 'List customers, newest first',
		action: 'Get many customers',
	},
	{
		name: 'Update',
		value: 'update',
		description: "Change a customer's e-mail, name or custom fields",
		action: 'Update a customer',
	},
]);
