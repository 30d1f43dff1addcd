/**
 * The child side of the bench's measurement protocol (measure.tsx): loads and warms up, runs a full
 * GC and reads its memory, clears the sandbox log (and switches the job's faults on), times the
 * measured part, runs a full GC, reads the heap, and answers once with its figures and the log.
 */
import { performance } from 'node:perf_hooks';

import { isolateUserFolder } from '../test/harness/isolateUserFolder';
import { type Answer, type ChildTask, fullGc, type Job, type TaskKind } from './measure';
import { sandboxAdmin } from './sandboxProcess';

const TASKS: Record<TaskKind, () => Promise<(job: never) => ChildTask<object>>> = {
	traversal: async () => (await import('./traversal')).traversalTask,
	items: async () => (await import('./items')).itemsTask,
	import: async () => (await import('./imports')).importTask,
};

const answer = (message: Answer): Promise<void> =>
	new Promise((resolve, reject) =>
		process.send?.(message, undefined, {}, (error) => (error ? reject(error) : resolve())),
	);

async function childMain(): Promise<void> {
	const { kind, job, faults } = await new Promise<Job>((resolve) =>
		process.once('message', resolve),
	);
	isolateUserFolder();
	const task = (await TASKS[kind]())(job as never) as ChildTask<object>;
	await task.warmUp();
	fullGc();
	const [rssBeforeBytes, maxRssBeforeBytes, heapBeforeBytes] = [
		process.memoryUsage().rss,
		process.resourceUsage().maxRSS * 1024,
		process.memoryUsage().heapUsed,
	];
	const sandbox = sandboxAdmin(job.target.baseUrl);
	await sandbox.clearLog();
	if (faults) await sandbox.setFaults(faults);

	const cpuStart = process.cpuUsage();
	const loopStart = performance.eventLoopUtilization();
	const started = process.hrtime.bigint();
	const own = await task.run();
	const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
	const cpu = process.cpuUsage(cpuStart);
	const loop = performance.eventLoopUtilization(loopStart);
	fullGc();
	const [heapAfterBytes, maxRssBytes] = [
		process.memoryUsage().heapUsed,
		process.resourceUsage().maxRSS * 1024,
	];

	if (faults) await sandbox.setFaults({});
	const figures = {
		wallMs,
		cpuMs: (cpu.user + cpu.system) / 1000,
		busyMs: loop.active,
		maxRssBytes,
		rssBeforeBytes,
		maxRssBeforeBytes,
		heapBeforeBytes,
		heapAfterBytes,
		...own(),
	};
	await answer({ figures, log: await sandbox.log() });
	process.disconnect();
}

if (require.main === module) {
	childMain().catch(async (error: unknown) => {
		await answer({
			error: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error),
		}).catch(() => undefined);
		process.exitCode = 1;
		process.disconnect?.();
	});
}
