import type { RequestLogEntry } from '../../../sandbox';

/** The most requests the sandbox was answering at the same moment. */
export function peakInFlight(log: readonly RequestLogEntry[]): number {
	const edges = log.flatMap((e) => [
		{ at: e.startedAt, step: 1 },
		{ at: e.startedAt + e.durationMs, step: -1 },
	]);
	edges.sort((a, b) => a.at - b.at || a.step - b.step);
	let current = 0;
	let peak = 0;
	for (const { step } of edges) peak = Math.max(peak, (current += step));
	return peak;
}
