/**
 * Return All through real n8n (`n8n execute`, the e2e's install, this package packed and installed
 * as a community package) against a sandbox process: time per page from n8n's own run data, and
 * how many times n8n reads the credential from its database (SQLite query log). One Limit 100 run
 * (1 page) and one Return All run (N/100 pages) of the same workflow, so per page = the difference
 * ÷ the extra pages, start-up and the first page cancelling out.
 */
import { executeWorkflow, importCredentials, importWorkflows } from '../test/e2e/n8n/cli';
import type { N8nInstall } from '../test/e2e/n8n/n8nInstall';
import {
	createUserFolder,
	installCommunityPackage,
	removeUserFolder,
} from '../test/e2e/n8n/userFolder';
import { packPackage, removePackedPackage } from '../test/e2e/packPackage';
import { sandboxCredentials, SANDBOX_CREDENTIAL_ID } from '../test/e2e/fixtures';
import { singleNodeWorkflow } from '../test/harness';
import type { SandboxProcess } from './sandboxProcess';
import { getManyParameters, NODE_TYPE } from './traversal';

/**
 * `nodeMs`: n8n's executionTime of the Support Ticket node in a run without the query log;
 * `credentialReads`: SELECTs of a credential's data on credentials_entity in the whole query-logged `n8n execute`.
 */
export type RealN8nRun = Record<
	'pages' | 'items' | 'nodeMs' | 'credentialReads' | 'processMs',
	number
>;
export type RealN8nFigures = { version: string; tickets: number; one: RealN8nRun; all: RealN8nRun };

type PrintedRun =
	| {
			data?: {
				resultData: {
					runData: Record<string, Array<{ executionTime: number; data: { main: unknown[][] } }>>;
				};
			};
	  }
	| undefined;

export async function measureRealN8nReturnAll(
	install: N8nInstall,
	sandbox: SandboxProcess,
	tickets: number,
): Promise<RealN8nFigures> {
	const packed = await packPackage();
	const folder = createUserFolder(install, {
		env: { DB_LOGGING_ENABLED: 'true', DB_LOGGING_OPTIONS: 'query' },
	});
	const credentials = {
		supportTicketApi: { id: SANDBOX_CREDENTIAL_ID, name: 'Support Ticket (sandbox)' },
	};
	const workflow = (id: string, limit?: number) => ({
		id,
		name: id,
		...singleNodeWorkflow(NODE_TYPE, getManyParameters(limit), { credentials }),
	});
	try {
		await installCommunityPackage(folder, packed.tarball, packed.version);
		await importCredentials(folder, sandboxCredentials(sandbox.target));
		await importWorkflows(folder, [workflow('benchLimitOne', 100), workflow('benchReturnAll')]);
		// Timed without the query log (printing every query costs time); counted in a second run with it.
		const execute = async (id: string, logged: boolean) => {
			await sandbox.clearLog();
			const started = performance.now();
			const execution = await executeWorkflow(
				logged ? folder : { ...folder, env: { ...folder.env, DB_LOGGING_ENABLED: 'false' } },
				id,
				600_000,
			);
			const processMs = performance.now() - started;
			const printed = execution.run as PrintedRun;
			if (execution.exitCode !== 0 || !printed?.data) {
				const why =
					execution.exitCode !== 0
						? `exit code ${execution.exitCode}`
						: `exit code 0 but no run result printed (no JSON run data in its output)`;
				const tail = (label: string, text: string): string =>
					text.trim() === ''
						? `${label}: (empty)`
						: `${label} (last 2,000 characters):\n${text.slice(-2000)}`;
				throw new Error(
					`n8n execute ${id} failed: ${why}\n${tail('stdout', execution.command.stdout)}\n${tail('stderr', execution.command.stderr)}`,
				);
			}
			return {
				execution,
				processMs,
				node: printed.data.resultData.runData.Node[0],
				log: await sandbox.log(),
			};
		};
		const run = async (id: string): Promise<RealN8nRun> => {
			const timed = await execute(id, false);
			const counted = await execute(id, true);
			const text = `${counted.execution.command.stdout}\n${counted.execution.command.stderr}`;
			return {
				pages: timed.log.filter((e) => e.method === 'GET' && e.status === 200).length,
				items: timed.node.data.main[0].length,
				nodeMs: timed.node.executionTime,
				credentialReads: (
					text.match(/SELECT[^\n]*"CredentialsEntity_data"[^\n]*FROM "credentials_entity"/g) ?? []
				).length,
				processMs: timed.processMs,
			};
		};
		const one = await run('benchLimitOne');
		const all = await run('benchReturnAll');
		if (all.items !== tickets) throw new Error(`expected ${tickets} items, got ${all.items}`);
		return { version: install.version, tickets, one, all };
	} finally {
		removeUserFolder(folder);
		removePackedPackage(packed);
	}
}
