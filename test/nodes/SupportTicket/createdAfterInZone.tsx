// Run as a child process with TZ set (jest copies process.env, so TZ cannot change inside a test):
//   TZ=Europe/Berlin node -r ./test/harness/register.js test/nodes/SupportTicket/createdAfterInZone.tsx <Created After>
import { credentialsFor } from '../../harness';
import { isolateUserFolder } from '../../harness/isolateUserFolder';
import { useNativeRegexEngine } from '../../harness/nativeRegexEngine';
import { startSandbox } from '../../../sandbox';
import { runNode } from '../supportTicketNode';

export interface ZoneRun {
	offsetInJune: number;
	ids: string[];
	expected: string[];
	sentCreatedAt: unknown[];
}

/** Tickets at -3 h, -1 min, 0, +1 min, +30 min, +3 h around 2025-06-01T12:00:00Z; expected: those at or after it. */
export async function createdAfterInThisZone(createdAfter: string): Promise<ZoneRun> {
	let pinned = 0;
	const sandbox = await startSandbox({
		timestampFormat: 'iso-without-zone',
		now: () => pinned,
		maxSkewSeconds: 10 ** 9,
	});
	try {
		const boundary = Date.parse('2025-06-01T12:00:00Z');
		const at = (offsetMs: number, n: number) => {
			pinned = boundary + offsetMs;
			return sandbox.store.createTicket({
				subject: `Zone ${n}`,
				description: 'd',
				customer: { email: `zone${n}@example.com` },
			}).id;
		};
		at(-3 * 3600_000, 1);
		at(-60_000, 2);
		const expected = [at(0, 3), at(60_000, 4), at(30 * 60_000, 5), at(3 * 3600_000, 6)].reverse();
		pinned = Date.now();
		const result = await runNode(
			{ resource: 'ticket', operation: 'getAll', returnAll: true, options: { createdAfter } },
			credentialsFor(sandbox),
		);
		if (result.error) throw result.error;
		const items = result.output('Node').map((i) => i.json);
		return {
			offsetInJune: new Date(boundary).getTimezoneOffset(),
			ids: items.map((t) => String(t.id)),
			expected,
			sentCreatedAt: items.map((t) => t.created_at),
		};
	} finally {
		await sandbox.stop();
	}
}

if (require.main === module) {
	isolateUserFolder();
	useNativeRegexEngine();
	createdAfterInThisZone(process.argv[2]).then(
		(run) => process.stdout.write(JSON.stringify(run)),
		(error: unknown) => {
			console.error(error);
			process.exitCode = 1;
		},
	);
}
