import type { INode } from 'n8n-workflow';

import {
	credentialData,
	CREDENTIAL_TYPE,
	findWorkflow,
	type SandboxAccess,
	type WorkflowFile,
} from './fixtures';
import type { CredentialImport } from './n8n/cli';

// Examples active under `n8n start` beside the webhook example, each on a sandbox of its own, so its schedule or polls
// never show in what the other server tests assert on.
export interface ActiveCopy {
	/** The example (or e2e workflow) it is a copy of. */
	example: string;
	workflow: WorkflowFile;
	credential: CredentialImport;
}

function rebindCredential(nodes: INode[], credential: { id: string; name: string }): INode[] {
	return nodes.map((node) =>
		node.credentials?.[CREDENTIAL_TYPE]
			? { ...node, credentials: { ...node.credentials, [CREDENTIAL_TYPE]: credential } }
			: node,
	);
}

function copyOf(
	examples: WorkflowFile[],
	file: string,
	id: string,
	label: string,
	sandbox: SandboxAccess,
	credentialId: string,
): ActiveCopy {
	const example = findWorkflow(examples, file);
	const credential: CredentialImport = {
		id: credentialId,
		name: `Support Ticket (${label} sandbox)`,
		type: CREDENTIAL_TYPE,
		data: credentialData(sandbox),
	};
	const json = {
		...example.json,
		id,
		name: `${example.json.name} (e2e, ${label})`,
		nodes: rebindCredential(example.json.nodes, { id: credential.id, name: credential.name }),
	};
	return { example: file, workflow: { file: `${file} (copy ${id})`, id, json }, credential };
}

/** The incremental import with its watermark in static data (examples/incremental-import.json keeps it in a Data Table). */
export const INCREMENTAL_EXAMPLE = 'test/e2e/workflows/incremental-import-static-data.json';
export const POLL_EXAMPLE = 'examples/poll-new-tickets.json';
export const SCHEDULE_SECONDS = 10;

/** incremental-import-static-data.json firing every 10 s instead of every hour (the node keeps its name: connections refer to it). */
export function scheduledImportCopy(examples: WorkflowFile[], sandbox: SandboxAccess): ActiveCopy {
	const copy = copyOf(
		examples,
		INCREMENTAL_EXAMPLE,
		'e2eImport10s',
		`every ${SCHEDULE_SECONDS} s`,
		sandbox,
		'supportTicketImport',
	);
	let schedules = 0;
	copy.workflow.json.nodes = copy.workflow.json.nodes.map((node) => {
		if (node.type !== 'n8n-nodes-base.scheduleTrigger') return node;
		schedules++;
		return {
			...node,
			parameters: { rule: { interval: [{ field: 'seconds', secondsInterval: SCHEDULE_SECONDS }] } },
		};
	});
	if (schedules !== 1)
		throw new Error(`${INCREMENTAL_EXAMPLE} has ${schedules} Schedule Triggers, expected 1`);
	return copy;
}

/** examples/poll-new-tickets.json unchanged (polls every minute) but for its credential. */
export function activePollCopy(examples: WorkflowFile[], sandbox: SandboxAccess): ActiveCopy {
	return copyOf(
		examples,
		POLL_EXAMPLE,
		'e2ePollActive',
		'polling',
		sandbox,
		'supportTicketPolling',
	);
}
