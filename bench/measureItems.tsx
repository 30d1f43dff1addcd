/**
 * Child process of one per-item measurement (protocol: measuredChild.tsx): loads its side, warms
 * up with a short run (no latency, no rate limit), answers `warm`; the parent clears the log,
 * switches the sandbox's latency / rate limit on and answers `go`; the child runs the N-item
 * workflow once through WorkflowExecute and reports what a user sees: wall time, output items,
 * error items, and the workflow's error if it failed.
 */
import { isolateUserFolder, runWorkflow } from '../test/harness';
import { addNodeTypes } from '../test/harness/extraNodeTypes';
import { HTTP_REQUEST_TYPE, itemInputs, itemWorkflow, type ItemOperation, type ItemSide } from './itemWorkflows';
import { nextParentMessage, runChildMain, sendToParent } from './measuredChild';
import type { SignedTarget } from './rawTraversal';

export interface ItemsJob {
	side: ItemSide;
	operation: ItemOperation;
	count: number;
	/** Subjects of this run's creates start with it. */
	tag: string;
	/** Existing tickets to get. */
	ticketIds: string[];
	target: SignedTarget;
	/** n8n-nodes-base's HttpRequest.node.js of the installed n8n, for the http-request sides. */
	httpRequestNodeFile: string;
}

export interface ItemsFigures {
	wallMs: number;
	cpuMs: number;
	outputItems: number;
	errorItems: number;
	/** The workflow's error, when it failed as a whole (then there is no output). */
	runError?: string;
}

const WARM_UP_ITEMS = 20;

async function run(job: ItemsJob, count: number, tag: string): Promise<Omit<ItemsFigures, 'wallMs' | 'cpuMs'>> {
	const items = itemInputs(job.operation, count, tag, job.ticketIds);
	const { baseUrl, apiKey, apiSecret } = job.target;
	const result = await runWorkflow(itemWorkflow(job.side, job.operation, items, baseUrl), { supportTicketApi: { baseUrl, apiKey, apiSecret } });
	if (result.error) return { outputItems: 0, errorItems: 0, runError: result.error.message };
	const output = result.output('Node');
	return { outputItems: output.length, errorItems: output.filter((item) => item.json.error !== undefined).length };
}

async function main(): Promise<void> {
	const first = await nextParentMessage<ItemsJob>();
	if (first.type !== 'job') throw new Error('expected a job');
	const { job } = first;
	isolateUserFolder();
	if (job.side.startsWith('http-request')) {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { HttpRequest } = require(job.httpRequestNodeFile) as { HttpRequest: new () => Parameters<typeof addNodeTypes>[0][string] };
		await addNodeTypes({ [HTTP_REQUEST_TYPE]: new HttpRequest() });
	}
	const warm = await run(job, WARM_UP_ITEMS, `${job.tag}-warm-up`);
	if (warm.runError) throw new Error(`warm-up failed: ${warm.runError}`);
	await sendToParent<ItemsFigures>({ type: 'warm' });
	if ((await nextParentMessage<ItemsJob>()).type !== 'go') throw new Error('expected go');

	const cpuStart = process.cpuUsage();
	const started = process.hrtime.bigint();
	const figures = await run(job, job.count, job.tag);
	const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
	const cpu = process.cpuUsage(cpuStart);
	await sendToParent<ItemsFigures>({ type: 'done', figures: { ...figures, wallMs, cpuMs: (cpu.user + cpu.system) / 1000 } });
	process.disconnect();
}

runChildMain(main);
