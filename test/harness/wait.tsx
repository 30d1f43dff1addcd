export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `condition` every `intervalMs` until it gives a value; fails after `timeoutMs`, naming `what` and what was seen last. */
export async function waitUntil<T>(
	what: string,
	condition: () => T | undefined | Promise<T | undefined>,
	timeoutMs: number,
	options: { intervalMs?: number; seen?: () => unknown } = {},
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await condition();
		if (value !== undefined) return value;
		if (Date.now() > deadline) {
			const seen = options.seen ? `; last seen: ${JSON.stringify(options.seen())}` : '';
			throw new Error(`waited ${timeoutMs / 1000} s for ${what}${seen}`);
		}
		await sleep(options.intervalMs ?? 500);
	}
}
