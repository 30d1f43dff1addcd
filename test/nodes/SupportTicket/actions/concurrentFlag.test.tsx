import type { INodeProperties } from 'n8n-workflow';

import { resources } from '../../../../nodes/SupportTicket/actions/resources';

// What the router runs concurrently must match Options → Concurrent Requests, or the option does nothing.
const offersConcurrentRequests = (description: INodeProperties[]) =>
	description.some(
		(property) =>
			property.name === 'options' &&
			(property.options ?? []).some(
				(option) => 'name' in option && option.name === 'concurrentRequests',
			),
	);

describe('which operations run items concurrently', () => {
	const rows = Object.entries(resources).flatMap(([resource, { operations }]) =>
		Object.entries(operations).map(([operation, module]) => ({ resource, operation, module })),
	);

	it.each(rows)(
		'$resource → $operation: the concurrent flag matches Options → Concurrent Requests',
		({ module }) => {
			expect(module.concurrent).toBe(offersConcurrentRequests(module.description));
		},
	);

	// Each item sends its own requests (a Get Many's cursor chain stays within its item): none waits for another.
	it.each(rows)('$resource → $operation runs its items concurrently', ({ module }) => {
		expect(module.concurrent).toBe(true);
	});
});
