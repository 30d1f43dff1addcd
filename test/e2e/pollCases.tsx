import assert from 'node:assert/strict';

import type { Ticket } from '../../sandbox';
import type { CliContext, ServerContext } from './context';
import { executionRun, isFinished, runFromEditor, waitForExecutions } from './executions';
import {
	credentialData,
	CREDENTIAL_TYPE,
	findWorkflow,
	lastSeq,
	type SandboxAccess,
	type WorkflowFile,
} from './fixtures';
import { nodeOutput, onlyItem } from './runData';
import type { ExecutionSummary } from './n8n/restClient';
import type { Suite } from './suite';
import { waitUntil } from '../harness/wait';

const POLL_EXAMPLE = 'examples/poll-new-tickets.json';

// The poll example unchanged (polls every minute) but for its credential: active under `n8n start` beside the webhook
// example, on a sandbox of its own, so its polls never show in what the other server tests assert on.
export function activePollCopy(
	examples: WorkflowFile[],
	sandbox: SandboxAccess,
): CliContext['polling'] {
	const example = findWorkflow(examples, POLL_EXAMPLE);
	const id = 'e2ePollActive';
	const [credentialId, name] = ['supportTicketPolling', 'Support Ticket (polling sandbox)'];
	const credential = {
		id: credentialId,
		name,
		type: CREDENTIAL_TYPE,
		data: credentialData(sandbox),
	};
	const credentials = { [CREDENTIAL_TYPE]: { id: credentialId, name } };
	const nodes = example.json.nodes.map((node) =>
		node.credentials?.[CREDENTIAL_TYPE]
			? { ...node, credentials: { ...node.credentials, ...credentials } }
			: node,
	);
	const json = { ...example.json, id, name: `${example.json.name} (e2e, polling)`, nodes };
	return { workflow: { file: `${POLL_EXAMPLE} (copy ${id})`, id, json }, credential };
}

const API = '/api/v1/external';
const TRIGGER = 'On New Ticket';

/** The reply the example's Acknowledge node writes. */
function acknowledgement(ticket: Pick<Ticket, 'subject' | 'customer'>): string {
	return `Hi ${ticket.customer.name || 'there'}, thanks for your message about "${ticket.subject}". We will get back to you soon.`;
}

/** The poll example: run from the editor (manual mode), and active under `n8n start`. */
export function addPollCases(suite: Suite, context: () => ServerContext): void {
	suite.test(
		`${POLL_EXAMPLE} run from the editor (manual mode): the newest ticket comes out and Acknowledge replies to exactly that one`,
		async () => {
			const { rest, install, examples, sandbox } = context();
			const workflow = findWorkflow(examples, POLL_EXAMPLE);
			const newest = sandbox.store.listTickets()[0];
			const before = lastSeq(sandbox);

			const { execution, run } = await runFromEditor(rest, install, workflow.id, TRIGGER);
			assert.deepEqual(
				[execution.mode, execution.status],
				['manual', 'success'],
				JSON.stringify(execution),
			);
			assert.deepEqual(nodeOutput(run, TRIGGER), [newest as unknown as Record<string, unknown>]);
			const reply = onlyItem(run, 'Acknowledge');
			assert.equal(reply.ticket_id, newest.id);
			assert.equal(reply.body, acknowledgement(newest));
			assert.equal(sandbox.store.listReplies(newest.id)[0].id, reply.id);
			const calls = sandbox.log.filter((e) => e.seq > before);
			assert.deepEqual(
				calls.map((e) => [e.method, e.pathname.replace(API, ''), e.query, e.status]),
				[
					['GET', '/tickets', { per_page: '1' }, 200],
					['POST', `/tickets/${newest.id}/replies`, {}, 201],
				],
			);
		},
	);

	suite.test(
		`${POLL_EXAMPLE} active (polls every minute): each ticket created after the first poll is acknowledged exactly once, oldest first, two with the same created_at included; older tickets are not`,
		async () => {
			const { rest, install, polling, pollSandbox: sandbox, pollClock } = context();
			// n8n runs the first poll as it activates the workflow (it notes where to start and emits nothing).
			const polled = () =>
				sandbox.log.some((e) => e.method === 'GET' && e.pathname === `${API}/tickets`);
			await waitUntil('the first poll', () => (polled() ? true : undefined), 75_000);
			const older = sandbox.store.listTickets();
			const replies = (t: Ticket) => sandbox.store.listReplies(t.id);
			const olderReplies = older.map((t) => replies(t).length);

			// Created in one go (no poll can read between them); the first two share a created_at.
			const at = Date.now();
			const create = (subject: string, createdAt: number) => {
				pollClock.pin(createdAt);
				const customer = { email: 'polled@example.com', name: 'Polly Poll' };
				return sandbox.store.createTicket({ subject, description: 'e2e', customer });
			};
			const first = create('Polled 1 (same second)', at);
			const second = create('Polled 2 (same second)', at);
			const third = create('Polled 3', at + 1000);
			pollClock.release();
			assert.equal(first.created_at, second.created_at);
			const created = [first, second, third];
			const createdAt = Date.now();

			// A poll acknowledges them (the next is at most a minute away). A marker created after that is
			// the next poll's only output: an execution of any poll between would show as a third one.
			const seen = () => created.map((t) => replies(t).length);
			const allReplied = () => seen().every(Boolean) || undefined;
			await waitUntil('a reply on each new ticket', allReplied, 75_000, { seen });
			const marker = create('Polled after the acknowledgements', Math.max(Date.now(), at + 2000));
			pollClock.release();
			const markerReplied = () => replies(marker).length > 0 || undefined;
			await waitUntil('a reply on the marker', markerReplied, 150_000 - (Date.now() - createdAt));
			const ended = (list: ExecutionSummary[]) => list.length >= 2 && list.every(isFinished);
			const what = 'both executions ended';
			const executions = await waitForExecutions(rest, polling.workflow.id, what, ended, 30_000);

			const [run, markerRun] = await Promise.all(
				executions.map((e) => executionRun(rest, install, e.id)),
			);
			const ids = (tickets: Array<{ id?: unknown }>) => tickets.map((t) => t.id);
			// Each new ticket acknowledged exactly once, oldest first (of two with the same created_at, the one created first),
			// in one execution; the marker alone in a second (nothing acknowledged again); older tickets not at all.
			assert.deepEqual(
				{
					replies: created.map((t) => replies(t).map((r) => r.body)),
					olderReplies: older.map((t) => replies(t).length),
					executions: executions.map((e) => `${e.mode} ${e.status}`),
					polled: [ids(nodeOutput(run, TRIGGER)), ids(nodeOutput(markerRun, TRIGGER))],
					acknowledged: nodeOutput(run, 'Acknowledge').map((r) => r.ticket_id),
				},
				{
					replies: created.map((t) => [acknowledgement(t)]),
					olderReplies,
					executions: ['trigger success', 'trigger success'],
					polled: [ids(created), [marker.id]],
					acknowledged: ids(created),
				},
			);
		},
	);
}
