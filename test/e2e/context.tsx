import type { Sandbox } from '../../sandbox';
import type { WorkflowFile } from './fixtures';
import type { CredentialImport } from './n8n/cli';
import type { N8nInstall } from './n8n/n8nInstall';
import type { N8nRestClient } from './n8n/restClient';
import type { N8nUserFolder } from './n8n/userFolder';
import type { PinnableClock } from './pinnableClock';

/** What the cases of one n8n version get (run.tsx). */
export interface CliContext {
	folder: N8nUserFolder;
	install: N8nInstall;
	examples: WorkflowFile[];
	e2e: WorkflowFile[];
	/** What the examples' own credentials point at; its clock can be held still to create tickets in one millisecond. */
	sandbox: Sandbox;
	clock: PinnableClock;
	credentials: CredentialImport[];
	/** The active poll copy (pollCases.tsx activePollCopy), on a sandbox of its own. */
	polling: { workflow: WorkflowFile; credential: CredentialImport };
	pollSandbox: Sandbox;
	pollClock: PinnableClock;
}

/** Under `n8n start`: its address and the editor's REST API, logged in as the owner. */
export interface ServerContext extends CliContext {
	url: string;
	rest: N8nRestClient;
}
