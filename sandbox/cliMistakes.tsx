/** The two first-start mistakes: npm kept the flags (the `--` forgotten), or the port is taken. */

/** Where npm puts a flag it kept as its own setting: `--seed-random` → npm_config_seed_random. */
const npmConfigName = (flag: string) => `npm_config_${flag.slice(2).replace(/-/g, '_')}`;

/**
 * `npm run sandbox --seed 0` (no `--`): npm keeps `--seed` as its own setting
 * (`npm_config_seed=true`) and passes on `0` alone; `--seed=5` leaves nothing. Says which command
 * was meant, if npm took any of the flags `usage` lists.
 */
export function flagsTakenByNpm(
	usage: string,
	argv: string[],
	env: NodeJS.ProcessEnv,
): string | undefined {
	const flags = [...usage.matchAll(/^ +(--[a-z][\w-]*)/gm)].map((m) => m[1]);
	const taken = flags.filter((flag) => env[npmConfigName(flag)] !== undefined);
	if (taken.length === 0) return undefined;
	// A value npm passed on can be paired with its flag only when npm took one flag.
	const leftOver = taken.length === 1 ? [...argv] : [];
	const meant = taken.flatMap((flag) => {
		const value = env[npmConfigName(flag)];
		return [flag, value !== 'true' ? value : (leftOver.shift() ?? 'N')];
	});
	return (
		`npm took ${taken.join(', ')} as its own setting (options for the sandbox go after --): ` +
		`did you mean \`npm run sandbox -- ${[...meant, ...leftOver].join(' ')}\`?`
	);
}

/** As `npm run dev` says it for n8n's port, with the flag that picks another. */
export const portInUse = (port: number) =>
	`port ${port} is in use (another sandbox? \`npm run dev\` starts one on 4010): stop it or pass ` +
	`another port, e.g. \`npm run sandbox -- --port ${port + 1}\` (0 picks a free one)`;
