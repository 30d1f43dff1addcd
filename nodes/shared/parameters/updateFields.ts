import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { invalid } from './invalid';

/** An update must change something: an empty PATCH is refused here rather than by the service. */
export function assertSomethingToUpdate(
	ctx: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): void {
	if (Object.keys(body).length === 0) {
		throw invalid(
			ctx,
			itemIndex,
			'Nothing to update',
			'Add at least one field under Update Fields.',
		);
	}
}
