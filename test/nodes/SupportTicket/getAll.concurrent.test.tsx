import type { IDataObject } from 'n8n-workflow';

import { itemsWorkflow, runWorkflow, useSandbox } from '../../harness';
import { NODE } from '../supportTicketNode';
import { peakInFlight } from './peakInFlight';

// Get Many runs input items concurrently: the output is that of one item after another (each item's list whole,
// in input order, paired to its item), and the requests of all lists stay within Concurrent Requests.
const { sandbox, credentials } = useSandbox({ seed: 600 });

const CONCURRENT_REQUESTS = 4;
const byStatus = ['open', 'pending', 'solved', 'on_hold'].flatMap((status) => [
	{ status },
	{ status },
]);
const ticketsByStatus = {
	resource: 'ticket',
	operation: 'getAll',
	returnAll: true,
	filters: { status: '={{ $json.status }}' },
};

async function getMany(items: IDataObject[], parameters: IDataObject, concurrentRequests: number) {
	sandbox.clearLog();
	const options = { ...(parameters.options as IDataObject | undefined), concurrentRequests };
	const result = await runWorkflow(itemsWorkflow(items, NODE, { ...parameters, options }), {
		supportTicketApi: credentials,
	});
	if (result.error) throw result.error;
	const listed = result
		.output('Node')
		.map((o) => ({ id: o.json.id, item: (o.pairedItem as { item: number }).item }));
	return { listed, calls: sandbox.log.length, peak: peakInFlight(sandbox.log) };
}

describe('Get Many with several input items at Concurrent Requests 4', () => {
	it.each([
		{
			name: 'ticket Return All, one status per item',
			items: byStatus,
			parameters: ticketsByStatus,
		},
		{
			name: 'ticket Return All from both ends',
			items: byStatus,
			parameters: { ...ticketsByStatus, options: { readFromBothEnds: true } },
		},
		{
			name: 'customer Return All',
			items: Array.from({ length: 6 }, () => ({})),
			parameters: { resource: 'customer', operation: 'getAll', returnAll: true },
		},
	])(
		'$name: the output of one item after another, at most 4 requests at once',
		async ({ items, parameters }) => {
			sandbox.setFaults({ latencyMs: [2, 10] });
			const oneByOne = await getMany(items, parameters, 1);
			const concurrent = await getMany(items, parameters, CONCURRENT_REQUESTS);

			expect(concurrent.listed).toEqual(oneByOne.listed);
			// Every item listed something, in input order, over more than one page each (a cursor chain per item).
			const order = oneByOne.listed.map((l) => l.item);
			expect([...new Set(order)]).toEqual(items.map((_, item) => item));
			expect(oneByOne.calls).toBeGreaterThan(items.length);
			expect(concurrent.calls).toBe(oneByOne.calls);
			expect(concurrent.peak).toBeGreaterThan(1);
			expect(concurrent.peak).toBeLessThanOrEqual(CONCURRENT_REQUESTS);
		},
	);
});
