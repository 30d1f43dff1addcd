import { setSafeRegexEngine } from 'n8n-workflow';

// n8n-workflow checks parameter patterns in `node:vm` with a 250 ms timeout, which fired once on a loaded CI machine:
// plain RegExp instead, as n8n's server installs its own engine.
export function useNativeRegexEngine(): void {
	const global = (flags?: string) => (flags?.includes('g') ? flags : `${flags ?? ''}g`);
	setSafeRegexEngine({
		exec: (pattern, input, flags) => new RegExp(pattern, flags).exec(input),
		test: (pattern, input, flags) => new RegExp(pattern, flags).test(input),
		replace: (pattern, input, flags, replacement) =>
			input.replace(new RegExp(pattern, flags), replacement),
		matchAll: (pattern, input, flags) =>
			Array.from(input.matchAll(new RegExp(pattern, global(flags)))),
		split: (pattern, input, flags) => input.split(new RegExp(pattern, flags)),
	});
}
