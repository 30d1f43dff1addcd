/**
 * Child process of one memory measurement: one import mode over one sandbox, alone in its
 * process, so its peak RSS (`resourceUsage().maxRSS`) belongs to that import and nothing else.
 *
 * Protocol over the IPC channel, as bench/measureTraversal.tsx: the parent sends an ImportJob;
 * the child loads the harness, warms up with WARM_UP_PAGES one-page executions (the JIT settles,
 * too few tickets to move the peak), answers `warm`; the parent clears the sandbox log and
 * answers `go`; the child imports every ticket and answers `done` with its figures.
 * Run with --expose-gc: the retained heap is read after full collections.
 */
import { isolateUserFolder } from '../test/harness/isolateUserFolder';
import { useNativeRegexEngine } from '../test/harness/nativeRegexEngine';
import type { ImportMode } from './importWorkflows';
import { fullGc, nextParentMessage, runChildMain, sendToParent } from './measuredChild';
import type { SignedTarget } from './rawTraversal';
import { importTickets, registerImportNodes, runDataJsonBytes, runPages } from './runImport';
import { TicketTally, type TallyFigures } from './ticketTally';

export interface ImportJob {
	mode: ImportMode;
	/** `--max-old-space-size` of the child, MiB; undefined: V8's default. */
	heapCapMiB?: number;
	/** Tickets seeded in the sandbox. */
	tickets: number;
	target: SignedTarget;
}

export interface ImportFigures extends TallyFigures {
	mode: ImportMode;
	heapCapMiB?: number;
	tickets: number;
	executions: number;
	/** Runs of the node that reads tickets (pages read, or 1 for Return All). */
	nodeRuns: number;
	wallMs: number;
	cpuMs: number;
	/** Peak RSS of the whole process lifetime, bytes. */
	maxRssBytes: number;
	/** RSS and heap after loading and warming up, before the measured import. */
	rssBeforeBytes: number;
	/** Peak RSS up to then (loading and warm-up), bytes. */
	maxRssBeforeBytes: number;
	heapBeforeBytes: number;
	/** Heap after a full GC when half of the tickets had been written (taken in the writer). */
	heapHalfBytes: number;
	/** Peak RSS so far and current RSS each time another tenth of the tickets had been written. */
	progress: ProgressSample[];
	/** Heap after the import and a full GC, the last execution's data still held. */
	heapAfterBytes: number;
	/** The last execution's run data as JSON: about what n8n saves for it. */
	runDataBytes: number;
}

export interface ProgressSample {
	written: number;
	maxRssBytes: number;
	rssBytes: number;
}


const WARM_UP_PAGES = 20;




async function main(): Promise<void> {
	const first = await nextParentMessage<ImportJob>();
	if (first.type !== 'job') throw new Error('expected a job');
	const { job } = first;
	isolateUserFolder();
	// As n8n's server does, and as the tests do: no vm timeout firing on a busy machine.
	useNativeRegexEngine();
	const credentials = { supportTicketApi: { ...job.target } };
	const tally = new TicketTally(job.tickets);
	await registerImportNodes(tally, credentials);

	await runPages(credentials, WARM_UP_PAGES);
	tally.reset();
	fullGc();
	const rssBeforeBytes = process.memoryUsage().rss;
	const maxRssBeforeBytes = process.resourceUsage().maxRSS * 1024;
	const heapBeforeBytes = process.memoryUsage().heapUsed;
	await sendToParent<ImportFigures>({ type: 'warm' });
	if ((await nextParentMessage<ImportJob>()).type !== 'go') throw new Error('expected go');

	const progress: ProgressSample[] = [];
	for (let tenth = 1; tenth <= 10; tenth++) {
		const written = Math.ceil((job.tickets * tenth) / 10);
		tally.onceWritten(written, () => progress.push({ written, maxRssBytes: process.resourceUsage().maxRSS * 1024, rssBytes: process.memoryUsage().rss }));
	}
	let heapHalfBytes = Number.NaN;
	// Registered after the tenths, so the fifth tenth is sampled before this collection.
	tally.onceWritten(Math.ceil(job.tickets / 2), () => {
		fullGc();
		heapHalfBytes = process.memoryUsage().heapUsed;
	});
	const cpuStart = process.cpuUsage();
	const started = process.hrtime.bigint();
	const outcome = await importTickets(job.mode, credentials, job.tickets);
	const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
	const cpu = process.cpuUsage(cpuStart);
	fullGc();
	const heapAfterBytes = process.memoryUsage().heapUsed;
	const maxRssBytes = process.resourceUsage().maxRSS * 1024;
	// After the peak is read: summing the JSON makes garbage of its own.
	const runDataBytes = runDataJsonBytes(outcome.last);
	await sendToParent<ImportFigures>({
		type: 'done',
		figures: {
			mode: job.mode,
			heapCapMiB: job.heapCapMiB,
			tickets: job.tickets,
			...tally.read(),
			executions: outcome.executions,
			nodeRuns: outcome.nodeRuns,
			wallMs,
			cpuMs: (cpu.user + cpu.system) / 1000,
			maxRssBytes,
			rssBeforeBytes,
			maxRssBeforeBytes,
			heapBeforeBytes,
			heapHalfBytes,
			progress,
			heapAfterBytes,
			runDataBytes,
		},
	});
	process.disconnect();
}

runChildMain(main);
