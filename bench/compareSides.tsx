/**
 * Side-by-side rounds: every round runs each side of every comparison once, each in a fresh
 * child process, one after another, all comparisons interleaved round by round (so a busy spell
 * on the machine hits every size and side, not one of them); the side order rotates from round
 * to round so neither side always runs first or always right after the other.
 */
import { forkMeasurement, type Measurement } from './forkMeasurement';
import type { Side } from './measureTraversal';
import type { SandboxProcess } from './sandboxProcess';
import { median, ratio } from './stats';

export interface RoundMeasurement extends Measurement {
	round: number;
}

export interface ComparisonSpec {
	title: string;
	tickets: number;
	/** Undefined: Return All. */
	limit?: number;
	expectedItems: number;
	expectedCalls: number;
}

export interface Comparison extends ComparisonSpec {
	measurements: RoundMeasurement[];
}

export interface ComparisonPlan {
	spec: ComparisonSpec;
	sandbox: SandboxProcess;
	sides: Side[];
}

export async function compareInterleaved(plans: ComparisonPlan[], rounds: number, progress: (line: string) => void): Promise<Comparison[]> {
	const comparisons: Comparison[] = plans.map((plan) => ({ ...plan.spec, measurements: [] }));
	for (let round = 1; round <= rounds; round++) {
		for (const [index, { spec, sandbox, sides }] of plans.entries()) {
			const target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret };
			const shift = (round - 1) % sides.length;
			for (const side of [...sides.slice(shift), ...sides.slice(0, shift)]) {
				const measurement = await forkMeasurement({ side, target, limit: spec.limit }, sandbox);
				comparisons[index].measurements.push({ ...measurement, round });
				progress(
					`  round ${round}/${rounds} ${spec.title.padEnd(18)} ${side.padEnd(18)} ${measurement.wallMs.toFixed(0).padStart(6)} ms wall, ` +
						`${measurement.cpuMs.toFixed(0).padStart(6)} ms CPU, peak RSS ${(measurement.maxRssBytes / 2 ** 20).toFixed(0)} MiB, ${measurement.calls} calls`,
				);
			}
		}
	}
	return comparisons;
}

export function ofSide(comparison: Comparison, side: Side): RoundMeasurement[] {
	return comparison.measurements.filter((m) => m.side === side);
}

/** Per-round ratio of a figure, node side over another side, then the median over rounds. */
export function roundRatios(comparison: Comparison, figure: (m: Measurement) => number, over: Side = 'raw', side: Side = 'node'): number[] {
	const ratios: number[] = [];
	for (const top of ofSide(comparison, side)) {
		const bottom = comparison.measurements.find((m) => m.side === over && m.round === top.round);
		if (bottom) ratios.push(ratio(figure(top), figure(bottom)));
	}
	return ratios;
}

export function medianOf(comparison: Comparison, side: Side, figure: (m: Measurement) => number): number {
	return median(ofSide(comparison, side).map(figure));
}

/** Every measurement returned the expected items in the expected number of successful calls. */
export function violations(comparison: Comparison): string[] {
	return comparison.measurements
		.filter((m) => m.items !== comparison.expectedItems || m.calls !== comparison.expectedCalls || m.requests !== comparison.expectedCalls)
		.map(
			(m) =>
				`${comparison.title}, round ${m.round}, ${m.side}: ${m.items} items in ${m.calls} calls (${m.requests} requests); expected ${comparison.expectedItems} in ${comparison.expectedCalls}`,
		);
}
