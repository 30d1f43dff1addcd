import assert from 'node:assert/strict';

import { isolateUserFolder, runWorkflow, useNativeRegexEngine } from '../harness';
import { BENCH_STAND_INS, registerBenchStandIns } from '../harness/benchStandIns';
import { BASE_NODE_STAND_INS } from '../harness/baseNodeStandIns';
import type { ServerContext } from './context';
import { runFromEditor } from './executions';
import { findWorkflow } from './fixtures';
import type { PrintedRun } from './runData';
import type { Suite } from './suite';

export const STAND_INS_WORKFLOW = 'test/e2e/workflows/base-node-stand-ins.json';

type RunData = PrintedRun['data']['resultData']['runData'];

/** Per node, per run, per output: the items' JSON, as a user reads them in the execution. */
function itemsByNode(runData: RunData): Record<string, unknown> {
	return Object.fromEntries(
		Object.entries(runData).map(([name, runs]) => [
			name,
			runs.map((run) =>
				(run.data?.main ?? []).map((items) => (items ?? []).map(({ json }) => json)),
			),
		]),
	);
}

// One workflow with every stand-in type (test/harness), run as "Execute workflow" does in real n8n and in the harness
// against the same sandbox: every node must put out the same items.
export function addStandInCase(suite: Suite, context: () => ServerContext): void {
	suite.test(
		`the harness's stand-ins for n8n-nodes-base put out what n8n's nodes do (${STAND_INS_WORKFLOW}, run from each trigger)`,
		async () => {
			const { rest, install, e2e, sandbox } = context();
			const workflow = findWorkflow(e2e, STAND_INS_WORKFLOW);
			const types = new Set(workflow.json.nodes.map((node) => node.type));
			assert.deepEqual(
				Object.keys({ ...BASE_NODE_STAND_INS, ...BENCH_STAND_INS }).filter(
					(type) => !types.has(type),
				),
				[],
				'the workflow uses every stand-in type',
			);
			const triggers = workflow.json.nodes
				.filter((node) => node.type.endsWith('Trigger'))
				.map((node) => node.name);
			isolateUserFolder();
			useNativeRegexEngine();
			await registerBenchStandIns();

			for (const trigger of triggers) {
				const { execution, run: inN8n } = await runFromEditor(rest, install, workflow.id, trigger);
				assert.equal(
					execution.status,
					'success',
					`n8n's run from ${trigger}: ${JSON.stringify(execution)}`,
				);

				const inHarness = await runWorkflow(
					workflow.json,
					{
						supportTicketApi: {
							baseUrl: sandbox.baseUrl,
							apiKey: sandbox.apiKey,
							apiSecret: sandbox.apiSecret,
						},
					},
					{ nodeName: trigger },
				);
				assert.equal(
					inHarness.error,
					undefined,
					`the harness's run from ${trigger} failed: ${inHarness.error?.message}`,
				);

				const expected = itemsByNode(inN8n.data.resultData.runData);
				// Through JSON, as n8n stores its run.
				const actual = itemsByNode(
					JSON.parse(JSON.stringify(inHarness.run?.data.resultData.runData ?? {})) as RunData,
				);
				assert.deepEqual(
					Object.keys(actual).sort(),
					Object.keys(expected).sort(),
					`from ${trigger}: the same nodes ran (harness: actual, n8n: expected)`,
				);
				for (const name of Object.keys(expected))
					assert.deepEqual(
						actual[name],
						expected[name],
						`from ${trigger}, node "${name}": harness (actual) vs n8n (expected)`,
					);
			}
		},
	);
}
