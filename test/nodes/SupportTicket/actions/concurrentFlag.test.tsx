import type { INodeProperties } from 'n8n-workflow';

import { resources } from '../../../../nodes/SupportTicket/actions/resources';

// Each item sends its own requests (a Get Many's cursor chain stays within its item): every operation runs its items
// concurrently, so every one must offer Options → Concurrent Requests, or the option does nothing.
const offersConcurrentRequests = (description: INodeProperties[]) =>
	description.some(
		(property) =>
			property.name === 'options' &&
			(property.options ?? []).some(
				(option) => 'name' in option && option.name === 'concurrentRequests',
			),
	);

const rows = Object.entries(resources).flatMap(([resource, { operations }]) =>
	Object.entries(operations).map(([operation, module]) => ({ resource, operation, module })),
);

it.each(rows)(
	'$resource → $operation runs its items concurrently and offers Concurrent Requests',
	({ module }) => {
		expect(module.concurrent).toBe(true);
		expect(offersConcurrentRequests(module.description)).toBe(true);
	},
);
