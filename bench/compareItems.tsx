/**
 * What a user feels with per-item operations: N creates and N gets against a service that takes
 * its time (fixed latency) and one that rate-limits, by this node one at a time, this node
 * concurrently, and n8n's HTTP Request node. Every side runs in a fresh child (measureItems.tsx),
 * all sides of a scenario back to back in every round, order rotated; counts come from the
 * sandbox's own request log: creates per subject (duplicates, lost items), refusals, rate.
 */
import path from 'node:path';

import type { FaultOptions, RequestLogEntry } from '../test/sandbox';
import type { ItemOperation, ItemSide } from './itemWorkflows';
import { forkMeasuredChild } from './measuredChild';
import type { ItemsFigures, ItemsJob } from './measureItems';
import type { SandboxProcess } from './sandboxProcess';

export interface ItemScenario {
	title: string;
	operation: ItemOperation;
	count: number;
	faults: FaultOptions;
	sides: ItemSide[];
	rounds: number;
}

export interface ItemMeasurement extends ItemsFigures {
	side: ItemSide;
	round: number;
	/** Requests the sandbox answered 2xx. */
	succeeded: number;
	/** Requests refused with 429 (rate limit or injected). */
	refused: number;
	/** Creates: subjects created more than once; gets: 0. */
	duplicates: number;
	/** Input items without a successful result in the node's output (all of them when the run failed). */
	lost: number;
	/** Creates: tickets of this run that exist (even when the run failed). */
	created: number;
	/** succeeded ÷ wall seconds. */
	ratePerSecond: number;
}

export interface ItemComparison extends ItemScenario {
	measurements: ItemMeasurement[];
}

const CHILD_TIMEOUT_MS = 600_000;

export async function compareItems(
	scenarios: ItemScenario[],
	sandbox: SandboxProcess,
	context: { ticketIds: string[]; httpRequestNodeFile: string },
	progress: (line: string) => void,
): Promise<ItemComparison[]> {
	const results: ItemComparison[] = [];
	const target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret };
	for (const scenario of scenarios) {
		const comparison: ItemComparison = { ...scenario, measurements: [] };
		for (let round = 1; round <= scenario.rounds; round++) {
			const shift = (round - 1) % scenario.sides.length;
			for (const side of [...scenario.sides.slice(shift), ...scenario.sides.slice(0, shift)]) {
				const tag = `bench-${Date.now().toString(36)}-${side}`;
				const job: ItemsJob = { side, operation: scenario.operation, count: scenario.count, tag, target, ...context };
				await sandbox.setFaults({});
				let log: RequestLogEntry[];
				let figures: ItemsFigures;
				try {
					({ figures, log } = await forkMeasuredChild<ItemsJob, ItemsFigures>(path.join(__dirname, 'measureItems.js'), job, sandbox, {
						execArgv: [],
						timeoutMs: CHILD_TIMEOUT_MS,
						label: `${scenario.title}, ${side}`,
						beforeGo: () => sandbox.setFaults(scenario.faults),
					}));
				} finally {
					await sandbox.setFaults({});
				}
				const measurement = tally(figures, log, scenario, side, round, tag);
				comparison.measurements.push(measurement);
				progress(
					`  round ${round}/${scenario.rounds} ${scenario.title.padEnd(36)} ${side.padEnd(18)} ${measurement.wallMs.toFixed(0).padStart(6)} ms, ` +
						`${measurement.lost} lost, ${measurement.duplicates} duplicated, ${measurement.refused} refused, ${measurement.ratePerSecond.toFixed(1)} req/s` +
						(figures.runError ? `, run failed: ${figures.runError.slice(0, 80)}` : ''),
				);
			}
		}
		results.push(comparison);
	}
	return results;
}

function tally(figures: ItemsFigures, log: RequestLogEntry[], scenario: ItemScenario, side: ItemSide, round: number, tag: string): ItemMeasurement {
	const succeeded = log.filter((e) => e.status >= 200 && e.status < 300).length;
	const perSubject = new Map<string, number>();
	for (const entry of log) {
		const subject = (entry.body as { subject?: unknown } | undefined)?.subject;
		if (entry.method === 'POST' && entry.status === 201 && typeof subject === 'string' && subject.startsWith(`${tag} #`)) {
			perSubject.set(subject, (perSubject.get(subject) ?? 0) + 1);
		}
	}
	const good = figures.runError ? 0 : figures.outputItems - figures.errorItems;
	return {
		...figures,
		side,
		round,
		succeeded,
		refused: log.filter((e) => e.status === 429).length,
		duplicates: [...perSubject.values()].filter((n) => n > 1).length,
		lost: Math.max(0, scenario.count - good),
		created: perSubject.size,
		ratePerSecond: succeeded / (figures.wallMs / 1000),
	};
}

/** Correctness, not speed: this node never duplicates a create, and never loses an item. */
export function itemViolations(comparison: ItemComparison): string[] {
	return comparison.measurements
		.filter((m) => m.side.startsWith('node-') && (m.duplicates > 0 || m.lost > 0))
		.map((m) => `${comparison.count} ${comparison.operation}s, ${comparison.title}, round ${m.round}, ${m.side}: ${m.lost} lost, ${m.duplicates} duplicated${m.runError ? ` (${m.runError})` : ''}`);
}
