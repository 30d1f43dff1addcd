import { resourceProperties } from '../common/descriptions';
import * as create from './create.operation';
import * as getAll from './getAll.operation';

/** What the router runs, by operation name. */
export const operations = { create, getAll };

export const description = resourceProperties('reply', operations, [
	{
		name: 'Create',
		value: 'create',
		description: 'Add a reply to a ticket',
		action: 'Create a reply',
	},
	{
		name: 'Get Many',
		value: 'getAll',
		description: 'List the replies of a ticket',
		action: 'Get many replies',
	},
]);
