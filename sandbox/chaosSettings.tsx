/**
 * Setting kinds that API faults (faults.tsx) and webhook chaos (webhookChaos.tsx) both take:
 * checks that throw a RangeError naming the setting, and drawing a duration.
 */

/** Milliseconds: fixed, or drawn evenly from [min, max] (both included). */
export type Milliseconds = number | [number, number];

export function probability(name: string, value: unknown): number {
	if (typeof value !== 'number' || !(value >= 0 && value <= 1))
		throw new RangeError(`${name} must be a number between 0 and 1`);
	return value;
}

export function milliseconds(name: string, value: unknown): Milliseconds {
	if (
		Array.isArray(value) &&
		value.length === 2 &&
		value.every(isNonNegativeInteger) &&
		value[0] <= value[1]
	)
		return [value[0], value[1]];
	if (isNonNegativeInteger(value)) return value;
	throw new RangeError(`${name} must be a non-negative integer or [min, max] with min <= max`);
}

export function seedSetting(value: unknown): number {
	if (!Number.isSafeInteger(value)) throw new RangeError('seed must be an integer');
	return value as number;
}

/** The duration for one event: 0 when unset; `random` returns [0, 1). */
export function drawMilliseconds(setting: Milliseconds | undefined, random: () => number): number {
	if (setting === undefined) return 0;
	if (typeof setting === 'number') return setting;
	const [min, max] = setting;
	return min + Math.floor(random() * (max - min + 1));
}

export function isNonNegativeInteger(value: unknown): value is number {
	return Number.isSafeInteger(value) && (value as number) >= 0;
}
