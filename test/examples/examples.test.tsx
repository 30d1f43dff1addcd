import { readdirSync } from 'node:fs';

import { repoPath } from '../harness';
import { load, pollingTables, POSTGRES_CREDENTIAL } from './postgresExamples';

const STICKY_NOTE = 'n8n-nodes-base.stickyNote';
const SANDBOX_CREDENTIAL = {
	supportTicketApi: { id: 'supportTicketSandbox', name: 'Support Ticket (sandbox)' },
};

describe('example workflows, as shipped in examples/', () => {
	it('each one explains itself in a sticky note, carries the credentials of the copy, keeps no workflow static data (queue-mode workers do not get it back), picks Data Tables by ID (n8n matches a name as a substring) and ends in no No Operation placeholder', () => {
		const files = readdirSync(repoPath('examples')).filter((file) => file.endsWith('.json'));
		expect(files.length).toBeGreaterThanOrEqual(14);
		const problems = files.flatMap((file) => {
			const workflow = load(file);
			// Our nodes carry the sandbox credential, n8n's Postgres nodes the copy's (n8n's other nodes carry none).
			const credential = (type: string) =>
				type === 'n8n-nodes-base.postgres'
					? POSTGRES_CREDENTIAL
					: type.startsWith('n8n-nodes-support-ticket.') && SANDBOX_CREDENTIAL;
			const checks: Array<[boolean, string]> = [
				[
					!workflow.nodes.some(
						(n) => n.type === STICKY_NOTE && String(n.parameters.content).length > 80,
					),
					'no sticky note that explains it',
				],
				[JSON.stringify(workflow).includes('getWorkflowStaticData'), 'workflow static data'],
				...workflow.nodes.flatMap(
					(n): Array<[boolean, string]> => [
						[
							!!credential(n.type) &&
								JSON.stringify(n.credentials) !== JSON.stringify(credential(n.type)),
							`${n.name}: not the copy's credentials`,
						],
						[
							![undefined, 'id'].includes((n.parameters.dataTableId as { mode?: string })?.mode),
							`${n.name}: a Data Table by name`,
						],
						[n.type === 'n8n-nodes-base.noOp', `${n.name}: a No Operation placeholder`],
					],
				),
			];
			return checks.filter(([failed]) => failed).map(([, problem]) => `${file}: ${problem}`);
		});
		expect(problems).toEqual([]);
	});

	it.each([
		['large-account-import.json', ['255,000 tickets', '200 MB', 'Publish this workflow']],
		[
			'large-account-import-postgres.json',
			[
				'up to 4,000 records per execution',
				'Publish this workflow',
				'Resume',
				'st_import_state',
				'no older state is ever written over a newer one',
				'null',
				...pollingTables().createStatements,
				'CREATE TABLE IF NOT EXISTS st_import_state (',
			],
		],
		[
			'sync-by-polling.json',
			[
				'No public URL needed',
				'Latency = the poll interval',
				'Safe when executions overlap',
				'sync-webhooks.json',
			],
		],
		['sync-webhooks-postgres.json', ['can create a second row or put an older state last']],
		['sync-reconcile-postgres.json', ['can create a second row or put an older state last']],
	])('%s: its sticky notes say what its user must know', (file, phrases) => {
		const notes = load(file)
			.nodes.filter((node) => node.type === STICKY_NOTE)
			.map((node) => String(node.parameters.content))
			.join('\n');
		expect(phrases.filter((phrase) => !notes.includes(phrase))).toEqual([]);
	});
	// Each example run against the sandbox in real n8n: test/e2e (cliCases, webhookCases, pollCases).
});
