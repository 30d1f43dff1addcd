import assert from 'node:assert/strict';

import { INCREMENTAL_EXAMPLE, SCHEDULE_SECONDS } from './activeCopies';
import type { ServerContext } from './context';
import { executionRun, isFinished, waitForExecutions } from './executions';
import type { ExecutionSummary } from './n8n/restClient';
import { nodeOutput, nodeOutputIfRan } from './runData';
import type { Suite } from './suite';

/** What one scheduled run read and imported. */
interface ImportRun {
	execution: ExecutionSummary;
	createdAfter: string;
	imported: Array<{ id: string; createdAt: string }>;
}

// The incremental import as users run a schedule: active, firing every 10 s under `n8n start`, its watermark in the
// static data n8n saves after each run.
export function addScheduleCases(suite: Suite, context: () => ServerContext): void {
	suite.test(
		`${INCREMENTAL_EXAMPLE} active (Schedule Trigger every ${SCHEDULE_SECONDS} s): every ticket imported exactly once, the run after new tickets imports just those`,
		async () => {
			const { rest, install, scheduled, importSandbox: sandbox } = context();
			const workflowId = scheduled.workflow.id;
			const runs = new Map<string, ImportRun>();
			const readRuns = async (executions: ExecutionSummary[]): Promise<void> => {
				for (const execution of executions.filter((e) => isFinished(e) && !runs.has(e.id))) {
					const run = await executionRun(rest, install, execution.id);
					runs.set(execution.id, {
						execution,
						createdAfter: String(nodeOutput(run, 'Read Watermark')[0]?.createdAfter),
						imported: nodeOutputIfRan(run, 'Store New Tickets').map((t) => ({
							id: String(t.id),
							createdAt: String(t.created_at),
						})),
					});
				}
			};

			// The schedule has been running since n8n started; the first run imports every ticket.
			await waitForExecutions(
				rest,
				workflowId,
				'a first scheduled run',
				(executions) => executions.some(isFinished),
				3 * SCHEDULE_SECONDS * 1000,
			);
			// Created in one go: no run can read between the two.
			const created = [1, 2].map((n) =>
				sandbox.store.createTicket({
					subject: `Created between two scheduled runs ${n}`,
					description: 'e2e',
					customer: { email: 'scheduled@example.com' },
				}),
			);
			const createdIds = created.map((ticket) => ticket.id);

			// Until a run imported them and a later run ended too (it must import nothing again).
			const executions = await waitForExecutions(
				rest,
				workflowId,
				'a scheduled run that imports the new tickets, and the run after it',
				async (all) => {
					await readRuns(all);
					const importer = [...runs.values()].find((run) =>
						run.imported.some((t) => createdIds.includes(t.id)),
					);
					return (
						importer !== undefined &&
						all.some((e) => isFinished(e) && Number(e.id) > Number(importer.execution.id))
					);
				},
				4 * SCHEDULE_SECONDS * 1000,
				1000,
			);
			const considered = executions.filter(isFinished).map((e) => runs.get(e.id) as ImportRun);
			assert.ok(
				considered.every(
					(run) => run.execution.status === 'success' && run.execution.mode === 'trigger',
				),
				JSON.stringify(considered.map((run) => run.execution)),
			);

			// Every ticket of the service exactly once over all runs; the first run took the seeded ones.
			const importedIds = considered.flatMap((run) => run.imported.map((t) => t.id));
			assert.deepEqual(
				[...importedIds].sort(),
				sandbox.store
					.listTickets()
					.map((t) => t.id)
					.sort(),
				`imported per run: ${JSON.stringify(considered.map((run) => run.imported.length))}`,
			);
			assert.equal(considered[0].createdAfter, '', 'the first run starts without a watermark');
			assert.equal(
				considered[0].imported.length,
				sandbox.seeded.tickets,
				'the first run imports the seeded tickets',
			);
			const importer = considered.find((run) =>
				run.imported.some((t) => createdIds.includes(t.id)),
			) as ImportRun;
			assert.deepEqual(
				importer.imported.map((t) => t.id),
				[...createdIds].reverse(),
				'the run after the new tickets imports just those (newest first)',
			);

			// Each run asked only for what is newer than everything imported before it: n8n kept the
			// watermark in the workflow's static data from one scheduled run to the next.
			let newest = '';
			for (const run of considered) {
				assert.equal(
					run.createdAfter,
					newest,
					`run ${run.execution.id} read the watermark of the runs before it`,
				);
				for (const ticket of run.imported)
					if (!newest || Date.parse(ticket.createdAt) > Date.parse(newest))
						newest = ticket.createdAt;
			}
		},
	);
}
