import { setSafeRegexEngine } from 'n8n-workflow';

/**
 * n8n-workflow checks parameter patterns (e.g. the resource locator's ID regex) through a
 * `node:vm` script with a 250 ms timeout unless the host installs its own engine, as n8n's
 * server does. On a loaded 2-core CI machine that timeout fired once on a trivial pattern, so
 * the harness installs plain RegExp: same results, no wall-clock limit.
 */
export function useNativeRegexEngine(): void {
	const global = (flags?: string) => (flags?.includes('g') ? flags : `${flags ?? ''}g`);
	setSafeRegexEngine({
		exec: (pattern, input, flags) => new RegExp(pattern, flags).exec(input),
		test: (pattern, input, flags) => new RegExp(pattern, flags).test(input),
		replace: (pattern, input, flags, replacement) => input.replace(new RegExp(pattern, flags), replacement),
		matchAll: (pattern, input, flags) => Array.from(input.matchAll(new RegExp(pattern, global(flags)))),
		split: (pattern, input, flags) => input.split(new RegExp(pattern, flags)),
	});
}
