/** The per-item part of bench/results.md: summary rows with targets, and every measurement. */
import type { ItemComparison, ItemMeasurement } from './compareItems';
import type { ItemSide } from './itemWorkflows';
import { median, ratio } from './stats';

export const ITEM_TARGETS = { speedUp: 6, overHttpRequest: 1.5, rateTolerance: 0.1 };

const f1 = (n: number): string => n.toFixed(1);
const f2 = (n: number): string => n.toFixed(2);
const verdict = (ok: boolean): string => (ok ? 'met' : '**not met**');

export function sideMeaning(side: ItemSide): string {
	if (side === 'http-request') return "n8n's HTTP Request node (n8n-nodes-base 2.41.1, v4.5, defaults, Support Ticket credential as predefined type)";
	if (side === 'http-request-retry') return 'the same with Retry On Fail (3 tries, 1 s apart)';
	const k = Number(side.slice('node-'.length));
	return k === 1 ? 'this node, Concurrent Requests 1 (one item after another, as before)' : `this node, Concurrent Requests ${k}`;
}

function of(comparison: ItemComparison, side: ItemSide): ItemMeasurement[] {
	return comparison.measurements.filter((m) => m.side === side);
}

/** Per-round wall-time ratio top ÷ bottom, median over rounds, with the range. */
function wallRatio(comparison: ItemComparison, top: ItemSide, bottom: ItemSide): number[] {
	return of(comparison, top).flatMap((t) => {
		const b = comparison.measurements.find((m) => m.side === bottom && m.round === t.round);
		return b ? [ratio(t.wallMs, b.wallMs)] : [];
	});
}

const spread = (values: number[]): string => (values.length === 0 ? 'n/a' : `${f2(median(values))} (rounds ${f2(Math.min(...values))}–${f2(Math.max(...values))})`);
const total = (ms: ItemMeasurement[], figure: (m: ItemMeasurement) => number): number => ms.reduce((sum, m) => sum + figure(m), 0);

/**
 * Summary rows. `concurrent` is the node side with the default Concurrent Requests; latency
 * scenarios compare it with `node-1` and `http-request`; rate-limited ones check failures and rate.
 */
export function itemSummaryRows(comparisons: ItemComparison[], concurrent: ItemSide, perSecond: number): string[][] {
	const rows: string[][] = [];
	for (const c of comparisons) {
		const label = `${c.count.toLocaleString('en')} ${c.operation === 'create' ? 'ticket creates' : 'ticket gets'}, ${c.title}`;
		const node = of(c, concurrent);
		if (c.faults.rateLimit === undefined) {
			const speedUp = wallRatio(c, 'node-1', concurrent);
			const overHttp = wallRatio(c, concurrent, 'http-request');
			rows.push([`${label}: speed-up ${concurrent} over node-1 (sequential ÷ concurrent wall time)`, spread(speedUp), `≥ ${ITEM_TARGETS.speedUp}`, verdict(median(speedUp) >= ITEM_TARGETS.speedUp)]);
			rows.push([`${label}: wall time ${concurrent} ÷ HTTP Request node`, spread(overHttp), `≤ ${ITEM_TARGETS.overHttpRequest}`, verdict(median(overHttp) <= ITEM_TARGETS.overHttpRequest)]);
			const nodeSides = c.measurements.filter((m) => m.side.startsWith('node-'));
			rows.push([`${label}: duplicates / lost items, every node side and round`, `${total(nodeSides, (m) => m.duplicates)} / ${total(nodeSides, (m) => m.lost)}`, '0 / 0', verdict(total(nodeSides, (m) => m.duplicates + m.lost) === 0)]);
			continue;
		}
		const rates = node.map((m) => m.ratePerSecond);
		const within = rates.every((r) => Math.abs(r - perSecond) <= perSecond * ITEM_TARGETS.rateTolerance);
		rows.push([`${label}: ${concurrent} failed (lost) items / duplicates`, `${total(node, (m) => m.lost)} / ${total(node, (m) => m.duplicates)}`, '0 / 0', verdict(total(node, (m) => m.lost + m.duplicates) === 0)]);
		rows.push([`${label}: ${concurrent} achieved rate (2xx per second of wall time)`, `${rates.map(f1).join(', ')} req/s`, `${perSecond} ± ${ITEM_TARGETS.rateTolerance * 100}%`, verdict(within && rates.length > 0)]);
		for (const side of ['http-request', 'http-request-retry'] as const) {
			const http = of(c, side);
			if (http.length === 0) continue;
			const failed = http.find((m) => m.runError)?.runError;
			rows.push([
				`${label}: ${side === 'http-request' ? 'HTTP Request node, defaults' : 'HTTP Request node, Retry On Fail'}: lost items / duplicates`,
				`${total(http, (m) => m.lost)} of ${c.count * http.length} / ${total(http, (m) => m.duplicates)}${failed ? ` (run failed: "${failed.slice(0, 60)}")` : ''}`,
				'for reference',
				'',
			]);
		}
	}
	return rows;
}

export function itemsSection(comparisons: ItemComparison[]): string {
	const sides = [...new Set(comparisons.flatMap((c) => c.sides))];
	const lines = [
		'## Per-item operations: what a user waits for',
		'',
		'Sides: ' + sides.map((side) => `\`${side}\` = ${sideMeaning(side)}`).join('; ') + '.',
		'Each measurement is a fresh child (`bench/measureItems.tsx`) that runs one workflow (a node that emits N items → the side) through',
		'WorkflowExecute; it warms up with a 20-item run on an idle sandbox, then the parent switches the scenario\'s latency / rate limit on',
		'and the N-item run is timed. Counts come from the sandbox\'s request log: "created" = distinct subjects of this run answered 201,',
		'"duplicated" = subjects created more than once, "lost" = input items without a successful output item (all of them when the',
		'run failed), "rate" = requests answered 2xx per second of wall time.',
		'',
	];
	for (const c of comparisons) {
		lines.push(`### ${c.count.toLocaleString('en')} ${c.operation === 'create' ? 'ticket creates' : 'ticket gets'}, ${c.title}: sandbox faults \`${JSON.stringify(c.faults)}\`, ${c.rounds} round(s)`, '');
		lines.push('| round | side | wall ms | client CPU ms | output items | error items | lost | created | duplicated | 2xx | 429 | rate req/s | run error |');
		lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
		for (const m of c.measurements) {
			lines.push(
				`| ${m.round} | ${m.side} | ${m.wallMs.toFixed(0)} | ${m.cpuMs.toFixed(0)} | ${m.outputItems} | ${m.errorItems} | ${m.lost} | ${c.operation === 'create' ? m.created : ''} | ${c.operation === 'create' ? m.duplicates : ''} | ${m.succeeded} | ${m.refused} | ${f1(m.ratePerSecond)} | ${m.runError ? m.runError.slice(0, 80).replace(/\|/g, '/') : ''} |`,
			);
		}
		lines.push('');
	}
	return lines.join('\n');
}
