import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

import { startSandbox, type Sandbox, type Ticket } from '../../sandbox';
import { repoPath } from '../harness/repoPath';
import { waitUntil } from '../harness/wait';
import type { ServerContext } from './context';
import { runFromEditor } from './executions';
import {
	callsSince,
	credentialData,
	CREDENTIAL_TYPE,
	lastSeq,
	type StoredWorkflowJson,
} from './fixtures';
import { withMcpClient, toolResultText, type McpTransportKind } from './mcpClient';
import type { N8nInstall } from './n8n/n8nInstall';
import type { N8nRestClient } from './n8n/restClient';
import { nodeOutput, type PrintedRun } from './runData';
import {
	messageText,
	startScriptedModel,
	type ChatRequest,
	type JsonSchema,
	type ScriptedTurn,
} from './scriptedModel';
import type { Suite } from './suite';

// The node as an AI tool in real n8n: the AI Agent on a scripted model (scriptedModel.tsx) and the MCP Server Trigger
// called by the official MCP client SDK (mcpClient.tsx), built through the editor's REST API (test/e2e/README.md).
const TOOL_TYPE = 'n8n-nodes-support-ticket.supportTicketTool';
const AGENT_TYPE = '@n8n/n8n-nodes-langchain.agent';
const MISSING_ID = 'tkt_does_not_exist';
const NOT_FOUND = `The ticket with ID "${MISSING_ID}" was not found`;
// The MCP trigger's Path; its production URL is <n8n>/mcp/<path> (n8n's endpoints.mcp, N8N_ENDPOINT_MCP).
const MCP_PATH = 'support-ticket-e2e';
type Credential = { id: string; name: string };
type CreateArgs = { subject: string; description: string; customerEmail: string };
const createArgs = (subject: string, description: string, customerEmail = 'ana@example.com') => ({
	subject,
	description,
	customerEmail,
});

/** What both ways offer: n8n's tool names (node name, spaces as `_`), descriptions (Set Automatically), `$fromAI` fields. */
const EXPECTED_TOOLS = {
	Create_a_ticket: {
		description: 'Create a ticket in Support Ticket',
		type: 'object',
		required: ['customerEmail', 'description', 'subject'],
		fields: {
			customerEmail: 'string: E-mail address of the customer',
			description: 'string: What the customer wrote',
			subject: 'string: Short title of the problem',
		},
	},
	Get_a_ticket: {
		description: 'Get a ticket in Support Ticket',
		type: 'object',
		required: ['ticketId'],
		fields: { ticketId: 'string: ID of the ticket, e.g. tkt_12' },
	},
};

type OfferedTool = {
	name: string;
	description?: string;
	parameters?: JsonSchema;
	inputSchema?: JsonSchema;
};

/** The tools offered (to the model: `parameters`, over MCP: `inputSchema`), each with its description, input schema type, required fields, and only its `$fromAI` fields. */
function assertToolSchemas(offered: OfferedTool[], where: string): void {
	const shapes = offered.map(({ name, description, parameters, inputSchema }) => {
		const { type, required, properties = {} } = parameters ?? inputSchema ?? {};
		const fields = Object.entries(properties).map(([f, p]) => [f, `${p.type}: ${p.description}`]);
		const shape = { description, type, required: required?.slice().sort() };
		return [name, { ...shape, fields: Object.fromEntries(fields) }];
	});
	const message = `${where}: ${JSON.stringify(offered)}`;
	assert.deepEqual(Object.fromEntries(shapes), EXPECTED_TOOLS, message);
}

// test/e2e/ai/*.json use the newest versions of n8n 2.41.1's nodes; n8n 1.123.81 has the ones before.
const NODE_VERSIONS_1X: Record<string, number> = {
	[AGENT_TYPE]: 3,
	'@n8n/n8n-nodes-langchain.mcpTrigger': 2,
};

function loadWorkflow(file: string, install: N8nInstall): StoredWorkflowJson {
	const text = readFileSync(repoPath('test', 'e2e', 'ai', file), 'utf8');
	const json = JSON.parse(text) as StoredWorkflowJson;
	if (Number(install.version.split('.')[0]) < 2)
		json.nodes = json.nodes.map((node) => ({
			...node,
			typeVersion: NODE_VERSIONS_1X[node.type] ?? node.typeVersion,
		}));
	return json;
}

/** Saves a workflow as the editor does (an existing one with the id is replaced: the suite may run twice on one instance). */
async function saveWorkflow(rest: N8nRestClient, id: string, json: StoredWorkflowJson) {
	if ((await rest.request('GET', `/workflows/${id}`)).status === 200) {
		await rest.request('POST', `/workflows/${id}/deactivate`, {});
		await rest.request('POST', `/workflows/${id}/archive`, {});
		await rest.request('DELETE', `/workflows/${id}`);
	}
	const body = { ...json, id, active: false };
	return rest.expectOk<{ id: string; versionId: string }>('POST', '/workflows', body);
}

/** A tool's result: n8n hands the node's output items (or `[{ error }]`) to the caller as a JSON string. */
function records(text: string): Array<Record<string, unknown>> {
	try {
		const value = JSON.parse(text) as unknown;
		return (Array.isArray(value) ? value : [value]) as Array<Record<string, unknown>>;
	} catch {
		throw new Error(`not a JSON tool result: ${text.slice(0, 300)}`);
	}
}

// Publishes a copy of mcp-server-tools.json (optionally at a path and webhook id of its own, on another credential) and
// waits until n8n registered its production URL: 2.x registers it a moment after the activate call answers; a CORS
// preflight (no session, no execution) answers 204 once it is registered, 404 before. Deactivated after `use`.
async function withMcpServer(
	context: ServerContext,
	workflowId: string,
	copy: { path: string; webhookId: string; credential: Credential } | undefined,
	use: (endpoint: string) => Promise<void>,
): Promise<void> {
	const { rest, url, install } = context;
	const json = loadWorkflow('mcp-server-tools.json', install);
	if (copy) {
		json.name = `${json.name} (${workflowId})`;
		const { path, webhookId, credential } = copy;
		json.nodes = json.nodes.map((node) =>
			node.type === TOOL_TYPE
				? { ...node, credentials: { supportTicketApi: credential } }
				: { ...node, webhookId, parameters: { ...node.parameters, path } },
		);
	}
	const workflow = await saveWorkflow(rest, workflowId, json);
	await rest.expectOk('POST', `/workflows/${workflow.id}/activate`, {
		versionId: workflow.versionId,
	});
	try {
		const endpoint = `${url}/mcp/${copy?.path ?? MCP_PATH}`;
		const headers = { origin: url, 'access-control-request-method': 'POST' };
		let last = 0;
		const registered = async () => {
			const response = await fetch(endpoint, {
				method: 'OPTIONS',
				headers,
				signal: AbortSignal.timeout(10_000),
			});
			await response.arrayBuffer();
			last = response.status;
			return last === 204 ? true : undefined;
		};
		await waitUntil(`${endpoint} registered`, registered, 60_000, {
			intervalMs: 200,
			seen: () => last,
		});
		await use(endpoint);
	} finally {
		if (copy) await rest.request('POST', `/workflows/${workflow.id}/deactivate`, {});
	}
}

/** A credential saved as the editor's form does. */
async function saveCredential(rest: N8nRestClient, name: string, type: string, data: object) {
	const { id } = await rest.expectOk<{ id: string }>('POST', '/credentials', { name, type, data });
	return { id, name };
}

/** The tools' On Error → Continue, the AI Agent's typeVersion (default the file's), the tools' credential (default the seeded sandbox's). */
type AgentSetup = {
	continueOnToolError?: boolean;
	agentVersion?: number;
	supportTicket?: Credential;
	workflowId?: string;
};

// Saves agent-tools.json on a scripted model and runs it as "Execute workflow" does.
async function runAgent(context: ServerContext, script: ScriptedTurn[], setup: AgentSetup = {}) {
	const { rest, install, sandbox } = context;
	const model = await startScriptedModel(script);
	try {
		const openAiApi = await saveCredential(rest, 'Scripted model (e2e)', 'openAiApi', {
			apiKey: 'sk-e2e-scripted',
			url: model.baseUrl,
		});
		const json = loadWorkflow('agent-tools.json', install);
		json.nodes = json.nodes.map((node): typeof node => {
			if (node.credentials?.openAiApi) return { ...node, credentials: { openAiApi } };
			if (node.type === AGENT_TYPE && setup.agentVersion !== undefined)
				return { ...node, typeVersion: setup.agentVersion };
			if (node.type !== TOOL_TYPE) return node;
			return {
				...node,
				...(setup.continueOnToolError ? { onError: 'continueRegularOutput' as const } : {}),
				...(setup.supportTicket ? { credentials: { supportTicketApi: setup.supportTicket } } : {}),
			};
		});
		const workflow = await saveWorkflow(rest, setup.workflowId ?? 'e2eAiAgentTools', json);
		const before = lastSeq(sandbox);
		const { execution, run } = await runFromEditor(rest, install, workflow.id, 'Start', {
			timeoutMs: 120_000,
		});
		const auth = model.requests.every((r) => r.authorization === 'Bearer sk-e2e-scripted');
		assert.ok(auth, 'every request to the model carries the credential');
		const chats = model.chats();
		return { status: execution.status, run, chats, calls: callsSince(sandbox, before) };
	} finally {
		await model.stop();
	}
}

/** The text the model got back for its call `id` (scriptedModel.tsx: call_<turn>_<n>), from the first request with it. */
function toolResultFor(chats: ChatRequest[], id: string): string {
	for (const chat of chats) {
		const message = chat.messages.find((m) => m.role === 'tool' && m.tool_call_id === id);
		if (message) return messageText(message) || `(no text) ${JSON.stringify(message)}`;
	}
	return `(no tool result for ${id} in any request to the model)`;
}

// One Idempotency-Key per tool call (issue 41): each create an agent or an MCP client asks for is a request of its own,
// against a service that honours the key (a repeated key is answered with the first ticket, or refused 422 with other
// data) and one that ignores it; each case on a sandbox (and credential) of its own, whose store holds just its tickets.
const KEY_HANDLINGS = [
	{ keys: 'honoured', service: 'honouring', idempotencyKeys: true, webhookId: 'b1' },
	{ keys: 'ignored', service: 'ignoring', idempotencyKeys: false, webhookId: 'b2' },
];

async function withCreateSandbox(
	rest: N8nRestClient,
	handling: (typeof KEY_HANDLINGS)[number],
	use: (sandbox: Sandbox, credential: Credential) => Promise<void>,
): Promise<void> {
	const sandbox = await startSandbox({ idempotencyKeys: handling.idempotencyKeys });
	try {
		const name = `Support Ticket (e2e, Idempotency-Key ${handling.keys})`;
		await use(sandbox, await saveCredential(rest, name, CREDENTIAL_TYPE, credentialData(sandbox)));
	} finally {
		await sandbox.stop();
	}
}

/**
 * What a user sees after the creates `asked` (in the order asked), each with the tool result it got: a ticket in the
 * service per create, each result that ticket (every ticket returned once), every create 201 with a key of its own.
 */
function assertEachCreateIsATicket(
	sandbox: Sandbox,
	asked: CreateArgs[],
	results: string[],
	where: string,
): void {
	const stored = new Map(sandbox.store.listTickets().map((t) => [t.id, t]));
	const returned = results.map((text) => {
		try {
			const value = records(text);
			const ticket = value.length === 1 ? stored.get(String(value[0].id)) : undefined;
			if (ticket && isDeepStrictEqual(value, [ticket])) return ticket;
		} catch {
			// Not JSON: reported below.
		}
		return `not a ticket in the service: ${text.slice(0, 300)}`;
	});
	const posts = sandbox.log.filter((e) => e.method === 'POST' && e.pathname.endsWith('/tickets'));
	assert.deepEqual(
		{
			ticketsInTheService: [...stored.values()].map((t) => t.subject).sort(),
			toolResults: returned.map((r) => (typeof r === 'string' ? r : `ticket "${r.subject}"`)),
			ticketsReturned: returned.flatMap((r) => (typeof r === 'string' ? [] : [r.id])).sort(),
			creates: posts.map((e) => `POST /tickets ${e.status}${e.errorCode ? ` ${e.errorCode}` : ''}`),
			distinctIdempotencyKeys: new Set(posts.map((e) => e.idempotencyKey)).size,
		},
		{
			ticketsInTheService: asked.map((a) => a.subject).sort(),
			toolResults: asked.map((a) => `ticket "${a.subject}"`),
			ticketsReturned: [...stored.keys()].sort(),
			creates: asked.map(() => 'POST /tickets 201'),
			distinctIdempotencyKeys: asked.length,
		},
		`${where}; Idempotency-Keys sent: ${JSON.stringify(posts.map((e) => e.idempotencyKey))}`,
	);
}

// How n8n 2.41.1 runs a tool node for the AI Agent: 3.x has the engine run it once per tool call (n8n-core
// requests-response.js; runs with `preserveSourceOverwrite`), 2.x calls it through n8n-core's tool caller, a run index
// per call (get-input-connection-data.js makeHandleToolInvocation; runs with a `subRun`).
const AGENT_PATHS = [
	{ agentVersion: 3.1, path: 'AI Agent 3.1, the engine runs each tool call', caller: 'engine' },
	{ agentVersion: 2.2, path: "AI Agent 2.2, n8n-core's tool caller", caller: 'tool caller' },
];

function toolCallers(run: PrintedRun, nodeName: string): string[] {
	type Metadata = { preserveSourceOverwrite?: boolean; subRun?: unknown[] };
	const runs = (run.data.resultData.runData[nodeName] ?? []) as Array<{ metadata?: Metadata }>;
	const caller = (m?: Metadata) =>
		m?.preserveSourceOverwrite ? 'engine' : m?.subRun && 'tool caller';
	return runs.map(({ metadata }) => caller(metadata) || JSON.stringify(metadata));
}

const create = (args: CreateArgs) => ({ name: 'Create_a_ticket', arguments: args });
// Each scenario: the model's answers before its last, each asking for creates of two different tickets a and b.
const CREATE_SCENARIOS = [
	{ name: 'two Create calls with different data in one model answer', turns: [['a', 'b']] },
	{ name: 'one Create call per step, two steps', turns: [['a'], ['b']] },
	{ name: 'two identical Create calls in one model answer', turns: [['a', 'a']] },
] as const;

function addIdempotencyKeyCases(suite: Suite, context: () => ServerContext): void {
	/** Two creates with different data, a and b, for a ticket each (subjects unique to this run). */
	const twoCreates = (who: string, via: string): Record<'a' | 'b', CreateArgs> => {
		const args = (letter: string, subject = `${who} ticket ${letter} ${Date.now()}`) =>
			createArgs(subject, `Opened ${via}: ${subject}`);
		return { a: args('A'), b: args('B') };
	};
	for (const { agentVersion, path, caller } of AGENT_PATHS)
		for (const scenario of CREATE_SCENARIOS)
			for (const handling of KEY_HANDLINGS)
				suite.test(
					`Idempotency-Key per tool call, ${path}: ${scenario.name}, service ${handling.service} the key → a ticket per call, each result that ticket`,
					async () => {
						const args = twoCreates('Agent', 'by the agent');
						const script: ScriptedTurn[] = [
							...scenario.turns.map((turn) => ({ toolCalls: turn.map((x) => create(args[x])) })),
							{ content: 'Done.' },
						];
						const asked = scenario.turns.flat().map((x) => args[x]);
						await withCreateSandbox(context().rest, handling, async (sandbox, supportTicket) => {
							const setup = { agentVersion, supportTicket, workflowId: 'e2eAiAgentCreate' };
							const { status, run, chats } = await runAgent(context(), script, setup);
							assert.deepEqual(
								toolCallers(run, 'Create a ticket'),
								asked.map(() => caller),
								'the way n8n ran the tool node',
							);
							const callIds = scenario.turns.flatMap((turn, t) =>
								turn.map((_, n) => `call_${t}_${n}`),
							);
							assertEachCreateIsATicket(
								sandbox,
								asked,
								callIds.map((id) => toolResultFor(chats, id)),
								`agent run ${status}: ${JSON.stringify(run.data.resultData.error?.message ?? run.data.resultData.runData['AI Agent']?.at(-1)?.data?.main?.[0]?.[0]?.json)}`,
							);
							assert.equal(status, 'success');
						});
					},
				);
	for (const handling of KEY_HANDLINGS)
		suite.test(
			`Idempotency-Key per tool call, MCP Server Trigger: one client session (Streamable HTTP) calls Create twice with different data and once more as the first, service ${handling.service} the key → three tickets`,
			async () => {
				await withCreateSandbox(context().rest, handling, async (sandbox, credential) => {
					const path = `${MCP_PATH}-keys-${handling.keys}`;
					const webhookId = `e2e00000-0000-4000-8a00-0000000000${handling.webhookId}`;
					const id = handling.idempotencyKeys ? 'e2eMcpKeysHonour' : 'e2eMcpKeysIgnore';
					await withMcpServer(context(), id, { path, webhookId, credential }, async (endpoint) => {
						const { a, b } = twoCreates('MCP', 'over MCP');
						const asked = [a, b, a];
						const results: string[] = [];
						await withMcpClient(endpoint, 'streamable-http', async (client) => {
							for (const call of asked)
								results.push(toolResultText(await client.callTool(create(call))));
						});
						assertEachCreateIsATicket(sandbox, asked, results, 'MCP calls');
					});
				});
			},
		);
}

const getTicket = (ticketId: string) => ({ name: 'Get_a_ticket', arguments: { ticketId } });
/** What both ways ask for in turn: a ticket, one that does not exist, a new ticket. */
const threeCalls = (existing: Ticket, opened: CreateArgs) => [
	getTicket(existing.id),
	getTicket(MISSING_ID),
	create(opened),
];

/** The three calls' results: the record, the readable not-found error (`missing`), the opened ticket; each call signed and accepted. */
function assertThreeResults(
	sandbox: Sandbox,
	[existing, opened]: [Ticket, CreateArgs],
	[read, missing, created]: string[],
	calls: string[],
	where: string,
): void {
	assert.deepEqual(records(read), [sandbox.store.getTicket(existing.id)], `${where}: the record`);
	assert.ok(missing.includes(NOT_FOUND), `${where}: the not-found error is readable: ${missing}`);
	const found = sandbox.store.listTickets().filter((t) => t.subject === opened.subject);
	assert.equal(found.length, 1, `exactly one ticket "${opened.subject}" in the service`);
	const [ticket] = found;
	assert.equal(ticket.customer.email, opened.customerEmail);
	assert.deepEqual(records(created), [ticket], `${where}: the created record`);
	assert.deepEqual(
		calls,
		[`GET /tickets/${existing.id} 200`, `GET /tickets/${MISSING_ID} 404`, 'POST /tickets 201'],
		`${where}: the sandbox verified each signature`,
	);
}

export function addAiCases(suite: Suite, version: string, context: () => ServerContext): void {
	const major = Number(version.split('.')[0]);
	const setting = major >= 2 ? 'as added' : 'tools set to On Error → Continue, as n8n 1.x needs';
	suite.test(
		`AI Agent + OpenAI Chat Model (scripted model on 127.0.0.1) with Support Ticket Tools (${setting}): schemas offered, signed calls, ticket and not-found error back to the model, run succeeds`,
		async () => {
			const { sandbox } = context();
			const existing = sandbox.store.listTickets()[3];
			const opened = createArgs(`AI agent e2e ${Date.now()}`, 'Login page shows an error');
			const final = 'Read the ticket, the other ID does not exist, opened a new ticket.';
			const { status, run, chats, calls } = await runAgent(
				context(),
				[
					...threeCalls(existing, opened).map((call) => ({ toolCalls: [call] })),
					{ content: final },
				],
				// n8n 1.x stops an AI Agent's run at a failing tool unless its On Error is "Continue"; 2.x hands the error to the model.
				{ continueOnToolError: major < 2 },
			);
			const { error, runData } = run.data.resultData;
			const theRun = `the run: ${JSON.stringify(error ?? runData).slice(0, 2000)}`;
			assert.equal(status, 'success', theRun);
			assert.deepEqual(
				nodeOutput(run, 'AI Agent').map((i) => i.output),
				[final],
			);
			assert.equal(chats.length, 4, 'the model was asked 4 times');
			for (const [n, { tools = [] }] of chats.entries())
				assertToolSchemas(
					tools.map((t) => t.function),
					`chat request ${n + 1}`,
				);
			// Request n+1 carries the answer to the call of turn n.
			const answers = [0, 1, 2].map((n) => toolResultFor(chats.slice(n + 1, n + 2), `call_${n}_0`));
			const [missing] = records(answers[1]);
			const read = [answers[0], String(missing.error), answers[2]];
			assertThreeResults(sandbox, [existing, opened], read, calls, 'the model');
			// With On Error → Continue the node's output carries its advice as well.
			if (major < 2) assert.ok(String(missing.description).includes('Check the ID'), answers[1]);
		},
	);

	if (major < 2)
		suite.test(
			'n8n 1.x (known limitation): with the tools as added, a ticket that does not exist stops the agent run with the readable error; the model never sees it',
			async () => {
				const { status, run, chats, calls } = await runAgent(context(), [
					{ toolCalls: [getTicket(MISSING_ID)] },
					{ content: 'not reached' },
				]);
				assert.equal(status, 'error');
				const { error } = run.data.resultData;
				assert.ok(String(error?.message).includes(NOT_FOUND), JSON.stringify(error));
				assert.equal(chats.length, 1, 'the model was asked once');
				assert.deepEqual(calls, [`GET /tickets/${MISSING_ID} 404`]);
			},
		);

	suite.test(
		'MCP Server Trigger with Support Ticket Tools, active: the MCP client SDK lists them with input schemas and calls them (Streamable HTTP and SSE)',
		async () => {
			const { sandbox } = context();
			const existing = sandbox.store.listTickets()[5];
			await withMcpServer(context(), 'e2eMcpServerTool', undefined, async (endpoint) => {
				for (const kind of ['streamable-http', 'sse'] as McpTransportKind[]) {
					const subject = `MCP e2e ${kind} ${Date.now()}`;
					const opened = createArgs(subject, 'Opened over MCP', 'mcp@example.com');
					const before = lastSeq(sandbox);
					await withMcpClient(endpoint, kind, async (client) => {
						const { tools } = await client.listTools();
						assertToolSchemas(tools as OfferedTool[], `${kind} tools/list`);
						const results = [];
						for (const call of threeCalls(existing, opened))
							results.push(await client.callTool(call));
						// The not-found is a tool error (isError) with the node's message and its advice.
						assert.deepEqual(
							results.map((r) => r.isError === true),
							[false, true, false],
							JSON.stringify(results),
						);
						const [texts, calls] = [results.map(toolResultText), callsSince(sandbox, before)];
						assertThreeResults(sandbox, [existing, opened], texts, calls, kind);
						assert.ok(texts[1].includes('Check the ID'), texts[1]);
					});
				}
			});
		},
	);

	// n8n 2.x only: 1.123.81 has no engine-run tool calls and these cases were not run there.
	if (major >= 2) addIdempotencyKeyCases(suite, context);
}
