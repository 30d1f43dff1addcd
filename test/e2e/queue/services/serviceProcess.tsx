import { type ProcessOptions, startProcess } from '../../n8n/run';

/** A long-running child the suite started and must stop. */
export type ServiceProcess = ReturnType<typeof startService>;

/** Every service started and not yet gone, in start order: what a Ctrl+C must stop. */
const live: Array<{ stop(): Promise<void> }> = [];

/** Stops every service still running, newest first (n8n before its database): the last line of defence on failure or a signal. */
export async function stopEveryService(): Promise<void> {
	for (let service = live.at(-1); service; service = live.at(-1)) {
		await service.stop();
		const index = live.indexOf(service);
		if (index !== -1) live.splice(index, 1);
	}
}

/** Runs each stop, last first, once; a stop that fails is logged and the rest still run. */
export async function stopInReverse(stops: Array<() => Promise<void>>): Promise<void> {
	for (const stop of stops.splice(0).reverse())
		await stop().catch((error: unknown) => console.log(`  could not stop: ${String(error)}`));
}

/** startProcess (n8n/run.tsx) with a log file, known to stopEveryService until it is gone. */
export function startService(options: ProcessOptions & { logFile: string }) {
	const service = startProcess(options);
	live.push(service);
	void service.exited.then(() => {
		const index = live.indexOf(service);
		if (index !== -1) live.splice(index, 1);
	});
	return service;
}
