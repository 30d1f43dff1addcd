import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, itemsWorkflow, runWorkflow, useSandbox } from '../../harness';
import { NODE } from '../supportTicketNode';
import { useWarningsWithoutWaits } from './warningsWithoutWaits';
import { lossyGateway } from './lossyGateway';

// Review: what one execution's creates claim is kept per execution (executionCreates). Two executions of a workflow
// running at once (two webhook deliveries, two queue-mode workers) whose create answers are both lost look up the same
// list with nothing shared: each takes "the best fit, then the oldest" — the same record.

useWarningsWithoutWaits();

describe('two executions at once, each creating one ticket, both answers lost after processing', () => {
	const clock = { ms: Date.parse('2026-11-02T09:00:00.000Z') };
	const { sandbox } = useSandbox({ seed: 33, now: () => clock.ms, maxSkewSeconds: 10 ** 9 });
	afterEach(() => (sandbox.store.ticketCreatedRule = undefined));

	it.each([
		['near-twins (another priority) that a helpdesk rule rewrites', 'rule', ['high', 'low']],
		['identical requests (two deliveries of one alert)', 'none', ['high', 'high']],
	])(
		'%s: each execution gets its own ticket, or fails with "may have been created"; never both the same',
		async (_case, rule, priorities) => {
			const subject = `two executions ${rule}`;
			if (rule === 'rule') sandbox.store.ticketCreatedRule = { priority: 'urgent' };
			let arrived = 0;
			let bothArrived = (): void => undefined;
			const both = new Promise<void>((resolve) => (bothArrived = resolve));
			const gateway = await lossyGateway(sandbox.baseUrl, async ({ method }) => {
				if (method !== 'POST') return 'pass';
				if (++arrived === 2) bothArrived();
				await both;
				// Processed one after another (created_at a second apart), both answers lost at the gateway.
				return async () => {
					clock.ms += 1000;
					await both;
					return {
						status: 502,
						headers: { 'content-type': 'text/html' },
						body: '<html>Bad Gateway</html>',
					};
				};
			});
			try {
				const credentials = { supportTicketApi: credentialsFor(sandbox, gateway.baseUrl) };
				const run = (priority: string) =>
					runWorkflow(
						itemsWorkflow(
							[{ priority }],
							NODE,
							{
								resource: 'ticket',
								operation: 'create',
								subject,
								description: 'Disk full on db-1',
								customerEmail: 'alerts@example.com',
								additionalFields: { priority: '={{ $json.priority }}' },
							},
							{ onError: 'continueRegularOutput' },
						),
						credentials,
					);
				const results = await Promise.all(priorities.map(run));
				const made = sandbox.store.listTickets().filter((t) => t.subject === subject);
				expect(made).toHaveLength(2);
				const ids = results
					.map((r) => r.output('Node')[0].json)
					.map((json: IDataObject) =>
						json.id === undefined ? `failed: ${String(json.error)}` : String(json.id),
					);
				const taken = ids.filter((id) => !id.startsWith('failed'));
				expect(taken).toEqual([...new Set(taken)]);
			} finally {
				await gateway.stop();
			}
		},
	);
});
