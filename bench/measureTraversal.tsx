/**
 * Child process of one measurement: one side (node or raw) runs one traversal, alone in its
 * process, so its peak RSS (`resourceUsage().maxRSS`) belongs to it and nothing else.
 *
 * Protocol over the IPC channel: the parent sends a TraversalJob; the child loads its side and
 * warms up with WARM_UP_RUNS Limit 250 traversals (enough calls for the JIT to settle, too few
 * items to move the peak RSS), answers `warm`; the parent clears the sandbox log and
 * answers `go`; the child runs the measured traversal and answers `done` with its figures.
 * Run with --expose-gc so the retained heap after the traversal can be read.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

import { isolateUserFolder } from '../test/harness/isolateUserFolder';
import { fullGc, nextParentMessage, runChildMain, sendToParent } from './measuredChild';
import type { SignedTarget } from './rawTraversal';

/**
 * `node` and `raw` are the comparison. Two diagnostic sides in between separate the costs:
 * `raw-new-connection` (the raw loop on a new TCP connection per request, as n8n's helper
 * connects) and `n8n-http` (n8n's HTTP helper and the package's signing, without the engine).
 */
export type Side = 'node' | 'raw' | 'raw-new-connection' | 'n8n-http';

export interface TraversalJob {
	side: Side;
	target: SignedTarget;
	/** Undefined: Return All. */
	limit?: number;
	/** Write a CPU profile of the measured traversal (only) to this file. */
	profilePath?: string;
}

export interface TraversalFigures {
	side: Side;
	items: number;
	wallMs: number;
	cpuMs: number;
	/** Peak RSS of the whole process lifetime, bytes. */
	maxRssBytes: number;
	/** RSS and heap after loading and warming up, before the measured traversal. */
	rssBeforeBytes: number;
	/** Peak RSS up to then (loading and warm-up), bytes. */
	maxRssBeforeBytes: number;
	heapBeforeBytes: number;
	/** Heap after the traversal and a full GC, with the items still held. */
	heapAfterBytes: number;
}


const WARM_UP_LIMIT = 250;
const WARM_UP_RUNS = 20;


async function traverse(job: TraversalJob, limit: number | undefined): Promise<unknown[]> {
	if (job.side === 'raw' || job.side === 'raw-new-connection') {
		const { rawTraversal } = await import('./rawTraversal');
		return rawTraversal(job.target, limit, job.side === 'raw-new-connection');
	}
	if (job.side === 'n8n-http') {
		const { n8nHttpTraversal } = await import('./n8nHttpTraversal');
		return n8nHttpTraversal(job.target, limit);
	}
	const { engineTraversal } = await import('./engineTraversal');
	return engineTraversal(job.target, limit);
}

function post<T>(session: Session, method: string): Promise<T> {
	return new Promise((resolve, reject) => session.post(method, (error, result) => (error ? reject(error) : resolve(result as T))));
}

/** Profiles exactly the measured traversal, with the inspector (not --cpu-prof, which would include loading and warm-up). */
async function startProfiling(): Promise<() => Promise<unknown>> {
	const session = new Session();
	session.connect();
	await post(session, 'Profiler.enable');
	await post(session, 'Profiler.start');
	return async () => {
		const { profile } = await post<{ profile: unknown }>(session, 'Profiler.stop');
		session.disconnect();
		return profile;
	};
}



async function main(): Promise<void> {
	const first = await nextParentMessage<TraversalJob>();
	if (first.type !== 'job') throw new Error('expected a job');
	const { job } = first;
	isolateUserFolder();
	for (let run = 0; run < WARM_UP_RUNS; run++) {
		await traverse(job, WARM_UP_LIMIT);
		// Collect after each one: the warm-up's garbage must not set the process's peak RSS.
		fullGc();
	}
	const rssBeforeBytes = process.memoryUsage().rss;
	const maxRssBeforeBytes = process.resourceUsage().maxRSS * 1024;
	const heapBeforeBytes = process.memoryUsage().heapUsed;
	await sendToParent<TraversalFigures>({ type: 'warm' });
	if ((await nextParentMessage<TraversalJob>()).type !== 'go') throw new Error('expected go');

	const stopProfiling = job.profilePath ? await startProfiling() : undefined;
	const cpuStart = process.cpuUsage();
	const started = process.hrtime.bigint();
	const items = await traverse(job, job.limit);
	const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
	const cpu = process.cpuUsage(cpuStart);
	if (stopProfiling && job.profilePath) writeFileSync(job.profilePath, JSON.stringify(await stopProfiling()));
	fullGc();
	const heapAfterBytes = process.memoryUsage().heapUsed;
	await sendToParent<TraversalFigures>({
		type: 'done',
		figures: {
			side: job.side,
			items: items.length,
			wallMs,
			cpuMs: (cpu.user + cpu.system) / 1000,
			maxRssBytes: process.resourceUsage().maxRSS * 1024,
			rssBeforeBytes,
			maxRssBeforeBytes,
			heapBeforeBytes,
			heapAfterBytes,
		},
	});
	process.disconnect();
}

runChildMain(main);
