import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { Sandbox } from '../../sandbox';
import type { WorkflowJson } from '../harness';
import { repoPath } from '../harness/repoPath';
import type { CredentialImport } from './n8n/cli';

/** The credential id the example workflows refer to. */
export const SANDBOX_CREDENTIAL_ID = 'supportTicketSandbox';
export const WRONG_SECRET_CREDENTIAL_ID = 'supportTicketWrongSecret';
export const CREDENTIAL_TYPE = 'supportTicketApi';

export type SandboxAccess = Pick<Sandbox, 'baseUrl' | 'apiKey' | 'apiSecret'>;

/** A Support Ticket API credential's data for `sandbox`. */
export function credentialData({ baseUrl, apiKey, apiSecret }: SandboxAccess) {
	return { baseUrl, apiKey, apiSecret, webhookSecret: '' };
}

/** The sandbox credential the examples use, and one with a wrong secret for the 401 path. */
export function sandboxCredentials(sandbox: SandboxAccess): CredentialImport[] {
	const data = credentialData(sandbox);
	return [
		{ id: SANDBOX_CREDENTIAL_ID, name: 'Support Ticket (sandbox)', type: CREDENTIAL_TYPE, data },
		{
			id: WRONG_SECRET_CREDENTIAL_ID,
			name: 'Support Ticket (wrong secret)',
			type: CREDENTIAL_TYPE,
			data: { ...data, apiSecret: `${sandbox.apiSecret}-wrong` },
		},
	];
}

export type StoredWorkflowJson = WorkflowJson & { id: string; name: string; active?: boolean };

export interface WorkflowFile {
	/** Relative to the checkout, e.g. `examples/import-all-tickets.json`. */
	file: string;
	/** The id it is imported under: derived from the file name, so it is stable and readable. */
	id: string;
	json: StoredWorkflowJson;
}

// n8n 1.x saves static data only for ids of at most 16 characters (its own are 16-character nanoids): longer ids would
// silently lose every watermark and poll state there.
export const MAX_WORKFLOW_ID_LENGTH = 16;

/** `examples/import-all-tickets.json` → `exImportAllTicke`: letters and digits, cut to {@link MAX_WORKFLOW_ID_LENGTH}. */
function workflowId(folder: string, fileName: string): string {
	const words = path
		.basename(fileName, '.json')
		.split(/[^a-zA-Z0-9]+/)
		.filter(Boolean);
	const prefix = folder === 'examples' ? 'ex' : 'e2e';
	return (prefix + words.map((word) => word[0].toUpperCase() + word.slice(1)).join('')).slice(
		0,
		MAX_WORKFLOW_ID_LENGTH,
	);
}

/** Names equal after the cut get a digit in place of their last characters, in file-name order, so ids stay stable. */
function uniqueId(id: string, taken: Set<string>): string {
	let unique = id;
	for (let n = 2; taken.has(unique); n++)
		unique = id.slice(0, MAX_WORKFLOW_ID_LENGTH - String(n).length) + String(n);
	taken.add(unique);
	return unique;
}

function loadFolder(folder: string): WorkflowFile[] {
	const dir = repoPath(...folder.split('/'));
	const taken = new Set<string>();
	return readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => {
			const id = uniqueId(workflowId(folder.split('/')[0], name), taken);
			const json = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as StoredWorkflowJson;
			return { file: `${folder}/${name}`, id, json: { ...json, id, active: false } };
		});
}

export const exampleWorkflows = () => loadFolder('examples');
export const e2eWorkflows = () => loadFolder('test/e2e/workflows');

export function findWorkflow(workflows: WorkflowFile[], file: string): WorkflowFile {
	const found = workflows.find((workflow) => workflow.file === file);
	if (!found) throw new Error(`${file} is missing`);
	return found;
}

/** Whether the workflow has a node of n8n's `n8n-nodes-base.<type>`. */
export function hasNode(workflow: WorkflowFile, type: string): boolean {
	return workflow.json.nodes.some((node) => node.type === `n8n-nodes-base.${type}`);
}

// The trigger's webhook path (SupportTicketTrigger.node.ts); n8n's production URL of a trigger
// node is /webhook/<the node's webhookId>/<path>.
const TRIGGER_TYPE = 'n8n-nodes-support-ticket.supportTicketTrigger';
const TRIGGER_PATH = 'support-ticket';

export function triggerWebhookPath(workflow: WorkflowFile): string | undefined {
	const trigger = workflow.json.nodes.find((node) => node.type === TRIGGER_TYPE);
	return trigger?.webhookId ? `/webhook/${trigger.webhookId}/${TRIGGER_PATH}` : undefined;
}

/** Stands for the sandbox's address in test/e2e/workflows/*.json (a node's URL has no credential to read it from). */
const SANDBOX_URL_PLACEHOLDER = 'http://sandbox.e2e.invalid';

export function pointAtSandbox(workflow: WorkflowFile, baseUrl: string): WorkflowFile {
	const json = JSON.stringify(workflow.json).replaceAll(SANDBOX_URL_PLACEHOLDER, baseUrl);
	return { ...workflow, json: JSON.parse(json) as WorkflowFile['json'] };
}

/** `ids` are every ticket of the service in its default order (newest first), read in one list call per page of 100. */
export function assertEveryTicketPageByPage(
	sandbox: Sandbox,
	ids: unknown[],
	before: number,
): number {
	const all = sandbox.store.listTickets().map((ticket) => ticket.id);
	assert.deepEqual(ids, all);
	const pages = Math.ceil(sandbox.store.ticketCount / 100);
	assert.deepEqual(callsSince(sandbox, before), Array(pages).fill('GET /tickets 200'));
	const queries = sandbox.log.filter((e) => e.seq > before).map((e) => e.query);
	assert.ok(
		queries.every((q, page) => q.per_page === '100' && (page === 0) === (q.cursor === undefined)),
		`pages after the first follow the cursor: ${JSON.stringify(queries)}`,
	);
	return pages;
}

export function lastSeq(sandbox: Sandbox): number {
	return sandbox.log.at(-1)?.seq ?? 0;
}

/** The sandbox's API calls since `fromSeq`, as `METHOD /path status` (no API prefix, no query). */
export function callsSince(sandbox: Sandbox, fromSeq: number): string[] {
	return sandbox.log
		.filter((e) => e.seq > fromSeq)
		.map((e) => `${e.method} ${e.pathname.replace('/api/v1/external', '')} ${e.status}`);
}
