import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { freePort } from './ports';
import { type CommandResult, runChecked, runCommand } from './run';
import type { N8nUserFolder } from './userFolder';

/** `n8n <args>` with the install's Node; each process's task broker gets a free port, so commands run beside `n8n start`. */
async function runN8n(
	folder: N8nUserFolder,
	args: string[],
	{ checked = true, timeoutMs = 180_000 } = {},
): Promise<CommandResult> {
	const env = { ...folder.env, N8N_RUNNERS_BROKER_PORT: String(await freePort()) };
	return (checked ? runChecked : runCommand)(
		folder.install.nodeBin,
		[folder.install.n8nBin, ...args],
		{ cwd: folder.root, env, timeoutMs },
	);
}

/** `n8n import:<kind> --separate` of the documents, a file each. */
function importFiles(folder: N8nUserFolder, kind: string, documents: object[]) {
	const dir = mkdtempSync(path.join(folder.root, 'import-'));
	documents.forEach((document, index) =>
		writeFileSync(path.join(dir, `${index}.json`), JSON.stringify(document)),
	);
	return runN8n(folder, [`import:${kind}`, '--separate', `--input=${dir}`]).finally(() =>
		rmSync(dir, { recursive: true, force: true }),
	);
}

/** A credential as `n8n import:credentials` takes it: plain `data`, encrypted on import. */
export interface CredentialImport {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export const importCredentials = (folder: N8nUserFolder, credentials: CredentialImport[]) =>
	importFiles(folder, 'credentials', credentials);

/** Workflows must carry an `id`: the tests execute them by it. */
export const importWorkflows = (folder: N8nUserFolder, workflows: Array<{ id: string }>) =>
	importFiles(folder, 'workflow', workflows);

// `n8n execute --rawOutput` mixes log lines into stdout: the result is the JSON from a line `{` alone to the first line
// `}` alone after which it parses.
function parseRawOutput(stdout: string): unknown {
	const lines = stdout.split('\n').map((line) => line.replace(/\r$/, ''));
	const start = lines.indexOf('{');
	if (start === -1) return undefined;
	for (let end = start + 1; end < lines.length; end++) {
		if (lines[end] !== '}') continue;
		try {
			return JSON.parse(lines.slice(start, end + 1).join('\n')) as unknown;
		} catch {
			// A nested closing brace at column 0 inside a string: keep looking.
		}
	}
	return undefined;
}

export interface CliExecution {
	/** Exit code of `n8n execute`: 0 when the workflow succeeded. */
	exitCode: number | null;
	/** The run data n8n printed, if it printed any. */
	run: unknown;
	command: CommandResult;
}

/** `n8n execute --id=<id> --rawOutput`: runs a stored workflow headless and returns its result. */
export async function executeWorkflow(
	folder: N8nUserFolder,
	id: string,
	timeoutMs = 180_000,
): Promise<CliExecution> {
	const command = await runN8n(folder, ['execute', `--id=${id}`, '--rawOutput'], {
		checked: false,
		timeoutMs,
	});
	return { exitCode: command.code, run: parseRawOutput(command.stdout), command };
}

/** Makes a stored workflow active (its triggers start with the next `n8n start`). */
export function activateWorkflow(folder: N8nUserFolder, id: string): Promise<CommandResult> {
	// 2.x publishes a version of the workflow; 1.x flips its active flag.
	const v2 = Number(folder.install.version.split('.')[0]) >= 2;
	const args = v2
		? ['publish:workflow', `--id=${id}`]
		: ['update:workflow', `--id=${id}`, '--active=true'];
	return runN8n(folder, args);
}
