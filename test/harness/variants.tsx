import { execFileSync } from 'node:child_process';

import { repoPath } from './repoPath';

/** `npm run <script> -- --<variant>`: a first argument named in `variants` runs that entry point; returns whether one ran. */
export function runVariant(variants: Record<string, () => Promise<unknown>>): boolean {
	const run = variants[process.argv[2] ?? ''];
	if (!run) return false;
	process.argv.splice(2, 1);
	run().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : error);
		process.exitCode = 1;
	});
	return true;
}

/** Redis and PostgreSQL for queue mode (Debian's packages, installed if missing). */
export function ensureQueueServices(): void {
	execFileSync('bash', [repoPath('test', 'e2e', 'queue', 'ensure-services.sh')], {
		stdio: 'inherit',
	});
}
