/** Small statistics for benchmark rounds. */

export function median(values: number[]): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function ratio(numerator: number, denominator: number): number {
	return denominator === 0 ? Number.NaN : numerator / denominator;
}
