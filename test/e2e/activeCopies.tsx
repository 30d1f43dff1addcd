import {
	credentialData,
	CREDENTIAL_TYPE,
	findWorkflow,
	type SandboxAccess,
	type WorkflowFile,
} from './fixtures';
import type { CredentialImport } from './n8n/cli';

// The poll example active under `n8n start` beside the webhook example, on a sandbox of its own, so its polls never show
// in what the other server tests assert on.
export interface ActiveCopy {
	workflow: WorkflowFile;
	credential: CredentialImport;
}

export const POLL_EXAMPLE = 'examples/poll-new-tickets.json';

/** examples/poll-new-tickets.json unchanged (polls every minute) but for its credential. */
export function activePollCopy(examples: WorkflowFile[], sandbox: SandboxAccess): ActiveCopy {
	const example = findWorkflow(examples, POLL_EXAMPLE);
	const id = 'e2ePollActive';
	const credential: CredentialImport = {
		id: 'supportTicketPolling',
		name: 'Support Ticket (polling sandbox)',
		type: CREDENTIAL_TYPE,
		data: credentialData(sandbox),
	};
	const { id: credentialId, name } = credential;
	const json = {
		...example.json,
		id,
		name: `${example.json.name} (e2e, polling)`,
		nodes: example.json.nodes.map((node) =>
			node.credentials?.[CREDENTIAL_TYPE]
				? {
						...node,
						credentials: { ...node.credentials, [CREDENTIAL_TYPE]: { id: credentialId, name } },
					}
				: node,
		),
	};
	return { workflow: { file: `${POLL_EXAMPLE} (copy ${id})`, id, json }, credential };
}
