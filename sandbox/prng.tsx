/**
 * Seeded pseudo-random numbers (mulberry32). Seed data and fault draws must be reproducible
 * run after run, which Math.random() cannot give. Not for cryptography.
 */
export type Random = () => number;

/** Returns a generator of floats in [0, 1) fully determined by `seed`. */
export function createRandom(seed: number): Random {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Integer in [min, max], both inclusive. */
export function randomInt(random: Random, min: number, max: number): number {
	return min + Math.floor(random() * (max - min + 1));
}

export function pick<T>(random: Random, items: readonly T[]): T {
	return items[Math.floor(random() * items.length)];
}

/** Picks by weight: `choices` is a list of [value, weight]. */
export function pickWeighted<T>(random: Random, choices: ReadonlyArray<readonly [T, number]>): T {
	let total = 0;
	for (const [, weight] of choices) total += weight;
	let r = random() * total;
	for (const [value, weight] of choices) {
		r -= weight;
		if (r < 0) return value;
	}
	return choices[choices.length - 1][0];
}
