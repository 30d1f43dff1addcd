import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

import { startSandbox, type Sandbox, type Ticket } from '../../sandbox';
import { repoPath } from '../harness/repoPath';
import { waitUntil } from '../harness/wait';
import type { ServerContext } from './context';
import { runFromEditor } from './executions';
import { callsSince, CREDENTIAL_TYPE, lastSeq, type StoredWorkflowJson } from './fixtures';
import { withMcpClient, toolResultText, type McpTransportKind } from './mcpClient';
import type { N8nInstall } from './n8n/n8nInstall';
import type { N8nRestClient } from './n8n/restClient';
import { nodeOutput, type PrintedRun } from './runData';
import {
	messageText,
	SCRIPTED_MODEL_ID,
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

/** What both ways offer: n8n's tool names (node name, spaces as `_`), descriptions (Set Automatically) and the `$fromAI` fields. */
const EXPECTED_TOOLS: Record<
	string,
	{ description: string; properties: Record<string, JsonSchema> }
> = {
	Get_a_ticket: {
		description: 'Get a ticket in Support Ticket',
		properties: { ticketId: { type: 'string', description: 'ID of the ticket, e.g. tkt_12' } },
	},
	Create_a_ticket: {
		description: 'Create a ticket in Support Ticket',
		properties: {
			subject: { type: 'string', description: 'Short title of the problem' },
			description: { type: 'string', description: 'What the customer wrote' },
			customerEmail: { type: 'string', description: 'E-mail address of the customer' },
		},
	},
};

/** The tools offered, each with its description, input schema type, required fields, and only its `$fromAI` fields. */
function assertToolSchemas(
	offered: Array<{ name: string; description?: string; schema?: JsonSchema }>,
	where: string,
): void {
	const shape = (
		name: string,
		description: string | undefined,
		schema: JsonSchema | undefined,
	) => ({
		name,
		description,
		type: schema?.type,
		required: schema?.required?.slice().sort(),
		fields: Object.fromEntries(
			Object.entries(schema?.properties ?? {}).map(([field, p]) => [
				field,
				{ type: p.type, description: p.description },
			]),
		),
	});
	const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
	const expected = Object.entries(EXPECTED_TOOLS).map(([name, tool]) =>
		shape(name, tool.description, {
			type: 'object',
			required: Object.keys(tool.properties).sort(),
			properties: tool.properties,
		}),
	);
	assert.deepEqual(
		offered.map((tool) => shape(tool.name, tool.description, tool.schema)).sort(byName),
		expected.sort(byName),
		`${where}: ${JSON.stringify(offered)}`,
	);
}

// test/e2e/ai/*.json use the newest versions of n8n 2.41.1's nodes; n8n 1.123.81 has the ones before.
const NODE_VERSIONS_1X: Record<string, number> = {
	'@n8n/n8n-nodes-langchain.agent': 3,
	'@n8n/n8n-nodes-langchain.mcpTrigger': 2,
};

function loadWorkflow(file: string, install: N8nInstall): StoredWorkflowJson {
	const json = JSON.parse(
		readFileSync(repoPath('test', 'e2e', 'ai', file), 'utf8'),
	) as StoredWorkflowJson;
	if (Number(install.version.split('.')[0]) >= 2) return json;
	return {
		...json,
		nodes: json.nodes.map((node) =>
			NODE_VERSIONS_1X[node.type] ? { ...node, typeVersion: NODE_VERSIONS_1X[node.type] } : node,
		),
	};
}

/** Saves a workflow as the editor does (an existing one with the id is replaced: the suite may run twice on one instance). */
async function saveWorkflow(
	rest: N8nRestClient,
	id: string,
	json: StoredWorkflowJson,
): Promise<{ id: string; versionId: string }> {
	const existing = await rest.request('GET', `/workflows/${id}`);
	if (existing.status === 200) {
		await rest.request('POST', `/workflows/${id}/deactivate`, {});
		await rest.request('POST', `/workflows/${id}/archive`, {});
		await rest.request('DELETE', `/workflows/${id}`);
	}
	return rest.expectOk('POST', '/workflows', { ...json, id, active: false });
}

/** A tool's result: n8n hands the node's output items (or `[{ error }]`) to the caller as a JSON string. */
function records(text: string): Array<Record<string, unknown>> {
	const value = JSON.parse(text) as unknown;
	return (Array.isArray(value) ? value : [value]) as Array<Record<string, unknown>>;
}

// n8n 2.x registers an activated workflow's webhooks a moment after the activate call answers: a CORS preflight (no
// session, no execution) answers 204 once the production URL is registered, 404 before.
async function mcpEndpointRegistered(endpoint: string, origin: string): Promise<void> {
	let last = 0;
	await waitUntil(
		`${endpoint} registered`,
		async () => {
			const response = await fetch(endpoint, {
				method: 'OPTIONS',
				headers: { origin, 'access-control-request-method': 'POST' },
				signal: AbortSignal.timeout(10_000),
			});
			await response.arrayBuffer();
			last = response.status;
			return response.status === 204 ? true : undefined;
		},
		60_000,
		{ intervalMs: 200, seen: () => last },
	);
}

function newTicket(sandbox: Sandbox, subject: string): Ticket {
	const found = sandbox.store.listTickets().filter((t) => t.subject === subject);
	assert.equal(found.length, 1, `exactly one ticket "${subject}" in the service`);
	return found[0];
}

interface AgentSetup {
	/** The tools' On Error → Continue. */
	continueOnToolError?: boolean;
	/** The AI Agent's typeVersion (default the file's, 3.1 on 2.x). */
	agentVersion?: number;
	/** The Support Ticket credential of the tools (default the seeded sandbox's). */
	supportTicket?: { id: string; name: string };
	workflowId?: string;
}

// Saves agent-tools.json on a scripted model and runs it as "Execute workflow" does.
async function runAgent(context: ServerContext, script: ScriptedTurn[], setup: AgentSetup = {}) {
	const { rest, install, sandbox } = context;
	const model = await startScriptedModel(script);
	try {
		const credential = await rest.expectOk<{ id: string }>('POST', '/credentials', {
			name: 'Scripted model (e2e)',
			type: 'openAiApi',
			data: { apiKey: 'sk-e2e-scripted', url: model.baseUrl },
		});
		const json = loadWorkflow('agent-tools.json', install);
		json.nodes = json.nodes.map((node) => {
			if (node.credentials?.openAiApi)
				return {
					...node,
					credentials: { openAiApi: { id: credential.id, name: 'Scripted model (e2e)' } },
				};
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
		assert.ok(
			model.requests.every((r) => r.authorization === 'Bearer sk-e2e-scripted'),
			'every request to the model carries the credential',
		);
		return {
			status: execution.status,
			run,
			chats: model.chats(),
			requests: model.requests,
			calls: callsSince(sandbox, before),
		};
	} finally {
		await model.stop();
	}
}

// One Idempotency-Key per tool call (issue 41): each create an agent or an MCP client asks for is a request of its own,
// against a service that honours the key (a repeated key is answered with the first ticket, or refused 422 with other
// data) and one that ignores it. Each case has a sandbox (and a credential) of its own, so its store holds just what the
// case created.
type KeyHandling = 'honoured' | 'ignored';
const KEY_HANDLINGS: KeyHandling[] = ['honoured', 'ignored'];

async function withCreateSandbox<T>(
	rest: N8nRestClient,
	keys: KeyHandling,
	use: (sandbox: Sandbox, credential: { id: string; name: string }) => Promise<T>,
): Promise<T> {
	const sandbox = await startSandbox({ idempotencyKeys: keys === 'honoured' });
	try {
		const name = `Support Ticket (e2e, Idempotency-Key ${keys})`;
		const { id } = await rest.expectOk<{ id: string }>('POST', '/credentials', {
			name,
			type: CREDENTIAL_TYPE,
			data: {
				baseUrl: sandbox.baseUrl,
				apiKey: sandbox.apiKey,
				apiSecret: sandbox.apiSecret,
				webhookSecret: '',
			},
		});
		return await use(sandbox, { id, name });
	} finally {
		await sandbox.stop();
	}
}

type CreateArgs = { subject: string; description: string; customerEmail: string };
const create = (args: CreateArgs) => ({ name: 'Create_a_ticket', arguments: args });

/**
 * What a user sees after the creates `asked` (in the order asked), each with the tool result it got: a ticket in the
 * service per create, each result that ticket (the subject it was asked for, every ticket returned once), every create
 * answered 201, each with an Idempotency-Key of its own.
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
			return ticket && isDeepStrictEqual(value, [ticket])
				? ticket
				: `not a ticket in the service: ${text.slice(0, 300)}`;
		} catch {
			return `not a ticket in the service: ${text.slice(0, 300)}`;
		}
	});
	const posts = sandbox.log.filter((e) => e.method === 'POST' && e.pathname.endsWith('/tickets'));
	const seen: Record<string, unknown> = {
		ticketsInTheService: [...stored.values()].map((t) => t.subject).sort(),
		toolResults: returned.map((r) => (typeof r === 'string' ? r : `ticket "${r.subject}"`)),
		ticketsReturned: returned.flatMap((r) => (typeof r === 'string' ? [] : [r.id])).sort(),
		creates: posts.map((e) => `POST /tickets ${e.status}${e.errorCode ? ` ${e.errorCode}` : ''}`),
		distinctIdempotencyKeys: new Set(posts.map((e) => e.idempotencyKey)).size,
	};
	const expected: Record<string, unknown> = {
		ticketsInTheService: asked.map((a) => a.subject).sort(),
		toolResults: asked.map((a) => `ticket "${a.subject}"`),
		ticketsReturned: [...stored.keys()].sort(),
		creates: asked.map(() => 'POST /tickets 201'),
		distinctIdempotencyKeys: asked.length,
	};
	const wrong = Object.keys(expected).filter(
		(what) => !isDeepStrictEqual(seen[what], expected[what]),
	);
	assert.ok(
		wrong.length === 0,
		[
			where,
			...wrong.map(
				(what) =>
					`${what}: ${JSON.stringify(seen[what])}, expected ${JSON.stringify(expected[what])}`,
			),
			`Idempotency-Keys sent: ${JSON.stringify(posts.map((e) => e.idempotencyKey))}`,
		].join('\n'),
	);
}

/** The text the model got back for its call `id` (the first later request that carries it). */
function toolResultFor(chats: ChatRequest[], id: string): string {
	for (const chat of chats) {
		const message = chat.messages.find((m) => m.role === 'tool' && m.tool_call_id === id);
		if (message) return messageText(message) || `(no text) ${JSON.stringify(message)}`;
	}
	return `(no tool result for ${id} in any request to the model)`;
}

// How n8n 2.41.1 runs a tool node for the AI Agent: 3.x returns the model's tool calls to the engine, which runs the tool
// node once per call with the agent's input, the call's arguments and its `toolCallId` (n8n-core requests-response.js);
// 2.x (LangChain's AgentExecutor) calls it through n8n-core's tool caller, a run index per call and per Retry On Fail try
// (get-input-connection-data.js makeHandleToolInvocation).
const AGENT_PATHS = [
	{ agentVersion: 3.1, path: 'AI Agent 3.1, the engine runs each tool call', caller: 'engine' },
	{ agentVersion: 2.2, path: "AI Agent 2.2, n8n-core's tool caller", caller: 'tool caller' },
] as const;

/** Which way the tool node's runs came: the engine's carry `preserveSourceOverwrite`, the tool caller's a `subRun`. */
function toolCallers(run: PrintedRun, nodeName: string): string[] {
	const runs = (run.data.resultData.runData[nodeName] ?? []) as Array<{
		metadata?: { preserveSourceOverwrite?: boolean; subRun?: unknown[] };
	}>;
	return runs.map((r) =>
		r.metadata?.preserveSourceOverwrite
			? 'engine'
			: r.metadata?.subRun
				? 'tool caller'
				: JSON.stringify(r.metadata),
	);
}

function addToolCallKeyCases(suite: Suite, context: () => ServerContext): void {
	const ticket = (subject: string): CreateArgs => ({
		subject,
		description: `Opened by the agent: ${subject}`,
		customerEmail: 'ana@example.com',
	});
	const scenarios: Array<{
		name: string;
		script: (a: CreateArgs, b: CreateArgs) => ScriptedTurn[];
		asked: (a: CreateArgs, b: CreateArgs) => CreateArgs[];
	}> = [
		{
			name: 'two Create calls with different data in one model answer',
			script: (a, b) => [{ toolCalls: [create(a), create(b)] }, { content: 'Opened both.' }],
			asked: (a, b) => [a, b],
		},
		{
			name: 'one Create call per step, two steps',
			script: (a, b) => [
				{ toolCalls: [create(a)] },
				{ toolCalls: [create(b)] },
				{ content: 'Opened both.' },
			],
			asked: (a, b) => [a, b],
		},
		{
			name: 'two identical Create calls in one model answer',
			script: (a) => [{ toolCalls: [create(a), create(a)] }, { content: 'Opened two.' }],
			asked: (a) => [a, a],
		},
	];
	for (const { agentVersion, path, caller } of AGENT_PATHS) {
		for (const scenario of scenarios) {
			for (const keys of KEY_HANDLINGS) {
				suite.test(
					`Idempotency-Key per tool call, ${path}: ${scenario.name}, service ${keys === 'honoured' ? 'honouring' : 'ignoring'} the key → a ticket per call, each result that ticket`,
					async () => {
						const stamp = Date.now();
						const [a, b] = [ticket(`Agent ticket A ${stamp}`), ticket(`Agent ticket B ${stamp}`)];
						const script = scenario.script(a, b);
						await withCreateSandbox(context().rest, keys, async (sandbox, supportTicket) => {
							const { status, run, chats } = await runAgent(context(), script, {
								agentVersion,
								supportTicket,
								workflowId: 'e2eAiAgentCreate',
							});
							const asked = scenario.asked(a, b);
							assert.deepEqual(
								toolCallers(run, 'Create a ticket'),
								asked.map(() => caller),
								'the way n8n ran the tool node',
							);
							// The call ids in the order the script asked for them (scriptedModel.tsx: call_<turn>_<n>).
							const callIds = script.flatMap((turn, t) =>
								'toolCalls' in turn ? turn.toolCalls.map((_, n) => `call_${t}_${n}`) : [],
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
			}
		}
	}
}

function addMcpCreateKeyCases(suite: Suite, context: () => ServerContext): void {
	for (const keys of KEY_HANDLINGS) {
		suite.test(
			`Idempotency-Key per tool call, MCP Server Trigger: one client session (Streamable HTTP) calls Create twice with different data and once more as the first, service ${keys === 'honoured' ? 'honouring' : 'ignoring'} the key → three tickets`,
			async () => {
				const { rest, url, install } = context();
				await withCreateSandbox(rest, keys, async (sandbox, credential) => {
					// A copy of mcp-server-tools.json on this sandbox, at a path (and webhook id) of its own.
					const mcpPath = `${MCP_PATH}-keys-${keys}`;
					const json = loadWorkflow('mcp-server-tools.json', install);
					json.name = `${json.name} (Idempotency-Key ${keys})`;
					json.nodes = json.nodes.map((node) => {
						if (node.type === TOOL_TYPE)
							return { ...node, credentials: { supportTicketApi: credential } };
						return {
							...node,
							webhookId: `e2e00000-0000-4000-8a00-0000000000${keys === 'honoured' ? 'b1' : 'b2'}`,
							parameters: { ...node.parameters, path: mcpPath },
						};
					});
					const workflow = await saveWorkflow(
						rest,
						keys === 'honoured' ? 'e2eMcpKeysHonour' : 'e2eMcpKeysIgnore',
						json,
					);
					await rest.expectOk('POST', `/workflows/${workflow.id}/activate`, {
						versionId: workflow.versionId,
					});
					try {
						const endpoint = `${url}/mcp/${mcpPath}`;
						await mcpEndpointRegistered(endpoint, url);
						const stamp = Date.now();
						const a = {
							subject: `MCP ticket A ${stamp}`,
							description: 'Opened over MCP',
							customerEmail: 'mcp@example.com',
						};
						const b = { ...a, subject: `MCP ticket B ${stamp}` };
						const asked = [a, b, a];
						const results: string[] = [];
						await withMcpClient(endpoint, 'streamable-http', async (client) => {
							for (const args of asked)
								results.push(
									toolResultText(
										await client.callTool({ name: 'Create_a_ticket', arguments: args }),
									),
								);
						});
						assertEachCreateIsATicket(sandbox, asked, results, 'MCP calls');
					} finally {
						await rest.request('POST', `/workflows/${workflow.id}/deactivate`, {});
					}
				});
			},
		);
	}
}

export function addAiCases(suite: Suite, version: string, context: () => ServerContext): void {
	const major = Number(version.split('.')[0]);
	const setting = major >= 2 ? 'as added' : 'tools set to On Error → Continue, as n8n 1.x needs';
	suite.test(
		`AI Agent + OpenAI Chat Model (scripted model on 127.0.0.1) with Support Ticket Tools (${setting}): schemas offered, signed calls, ticket and not-found error back to the model, run succeeds`,
		async () => {
			const { sandbox } = context();
			const existing = sandbox.store.listTickets()[3];
			const subject = `AI agent e2e ${Date.now()}`;
			const final = 'Read the ticket, the other ID does not exist, opened a new ticket.';
			const { status, run, chats, requests, calls } = await runAgent(
				context(),
				[
					{ toolCalls: [{ name: 'Get_a_ticket', arguments: { ticketId: existing.id } }] },
					{ toolCalls: [{ name: 'Get_a_ticket', arguments: { ticketId: MISSING_ID } }] },
					{
						toolCalls: [
							{
								name: 'Create_a_ticket',
								arguments: {
									subject,
									description: 'Login page shows an error',
									customerEmail: 'ana@example.com',
								},
							},
						],
					},
					{ content: final },
				],
				// n8n 1.x stops an AI Agent's run at a failing tool unless the tool's On Error is "Continue"; 2.x hands the error to the model.
				{ continueOnToolError: major < 2 },
			);
			assert.equal(
				status,
				'success',
				`the run: ${JSON.stringify(run.data.resultData.error ?? run.data.resultData.runData).slice(0, 2000)}`,
			);
			assert.deepEqual(
				nodeOutput(run, 'AI Agent').map((item) => item.output),
				[final],
			);

			assert.equal(
				chats.length,
				4,
				`the model was asked ${chats.length} times: ${JSON.stringify(requests.map((r) => `${r.method} ${r.path}`))}`,
			);
			assert.ok(
				chats.every((c) => c.model === SCRIPTED_MODEL_ID),
				'the model named in the node',
			);
			for (const [n, chat] of chats.entries()) {
				assertToolSchemas(
					(chat.tools ?? []).map((t) => ({
						name: t.function.name,
						description: t.function.description,
						schema: t.function.parameters,
					})),
					`chat request ${n + 1}`,
				);
			}
			assert.ok(
				messageText(chats[0].messages[0]).includes('Use the Support Ticket tools'),
				'the system message',
			);
			assert.ok(
				chats[0].messages.some(
					(m) =>
						m.role === 'user' && messageText(m).includes('Ana (ana@example.com) cannot log in'),
				),
				'the prompt',
			);

			// Request n+1 carries the answer to the call of turn n.
			const toolAnswer = (n: number): string => {
				const message = chats[n + 1].messages.find(
					(m) => m.role === 'tool' && m.tool_call_id === `call_${n}_0`,
				);
				assert.ok(
					message,
					`request ${n + 2} answers call_${n}_0: ${JSON.stringify(chats[n + 1].messages)}`,
				);
				return messageText(message);
			};
			assert.deepEqual(
				records(toolAnswer(0)),
				[sandbox.store.getTicket(existing.id)],
				'the model gets the ticket it asked for',
			);
			const missing = records(toolAnswer(1));
			assert.ok(
				missing.length === 1 && String(missing[0].error).includes(NOT_FOUND),
				`the model reads why the ticket is missing: ${JSON.stringify(missing)}`,
			);
			// With On Error → Continue the node's output carries its advice as well.
			if (major < 2)
				assert.ok(String(missing[0].description).includes('Check the ID'), JSON.stringify(missing));
			const created = newTicket(sandbox, subject);
			assert.equal(created.customer.email, 'ana@example.com');
			assert.deepEqual(records(toolAnswer(2)), [created], 'the model gets the ticket it opened');

			assert.deepEqual(
				calls,
				[`GET /tickets/${existing.id} 200`, `GET /tickets/${MISSING_ID} 404`, 'POST /tickets 201'],
				'the sandbox verified each signature',
			);
		},
	);

	if (major < 2) {
		suite.test(
			'n8n 1.x (known limitation): with the tools as added, a ticket that does not exist stops the agent run with the readable error; the model never sees it',
			async () => {
				const { status, run, chats, calls } = await runAgent(context(), [
					{ toolCalls: [{ name: 'Get_a_ticket', arguments: { ticketId: MISSING_ID } }] },
					{ content: 'not reached' },
				]);
				assert.equal(status, 'error');
				assert.ok(
					String(run.data.resultData.error?.message).includes(NOT_FOUND),
					JSON.stringify(run.data.resultData.error),
				);
				assert.equal(chats.length, 1, 'the model was asked once');
				assert.deepEqual(calls, [`GET /tickets/${MISSING_ID} 404`]);
			},
		);
	}

	suite.test(
		'MCP Server Trigger with Support Ticket Tools, active: the MCP client SDK lists them with input schemas and calls them (Streamable HTTP and SSE)',
		async () => {
			const { rest, url, install, sandbox } = context();
			const workflow = await saveWorkflow(
				rest,
				'e2eMcpServerTool',
				loadWorkflow('mcp-server-tools.json', install),
			);
			await rest.expectOk('POST', `/workflows/${workflow.id}/activate`, {
				versionId: workflow.versionId,
			});
			const endpoint = `${url}/mcp/${MCP_PATH}`;
			await mcpEndpointRegistered(endpoint, url);
			const existing = sandbox.store.listTickets()[5];

			for (const kind of ['streamable-http', 'sse'] as McpTransportKind[]) {
				const subject = `MCP e2e ${kind} ${Date.now()}`;
				const before = lastSeq(sandbox);
				await withMcpClient(endpoint, kind, async (client) => {
					const { tools } = await client.listTools();
					assertToolSchemas(
						tools.map((t) => ({
							name: t.name,
							description: t.description,
							schema: t.inputSchema as JsonSchema,
						})),
						`${kind} tools/list`,
					);

					const read = await client.callTool({
						name: 'Get_a_ticket',
						arguments: { ticketId: existing.id },
					});
					assert.notEqual(read.isError, true, `${kind}: ${JSON.stringify(read)}`);
					assert.deepEqual(
						records(toolResultText(read)),
						[sandbox.store.getTicket(existing.id)],
						`${kind}: the record`,
					);

					const missing = await client.callTool({
						name: 'Get_a_ticket',
						arguments: { ticketId: MISSING_ID },
					});
					// A tool error (isError) with the node's message and its advice.
					const text = toolResultText(missing);
					assert.ok(
						missing.isError === true && text.includes(NOT_FOUND) && text.includes('Check the ID'),
						`${kind}: the not-found error is readable: ${JSON.stringify(missing)}`,
					);

					const opened = await client.callTool({
						name: 'Create_a_ticket',
						arguments: {
							subject,
							description: 'Opened over MCP',
							customerEmail: 'mcp@example.com',
						},
					});
					assert.deepEqual(
						records(toolResultText(opened)),
						[newTicket(sandbox, subject)],
						`${kind}: the created record`,
					);
				});
				assert.deepEqual(
					callsSince(sandbox, before),
					[
						`GET /tickets/${existing.id} 200`,
						`GET /tickets/${MISSING_ID} 404`,
						'POST /tickets 201',
					],
					`${kind}: the sandbox verified each signature`,
				);
			}
		},
	);

	// n8n 2.x only: 1.123.81 has no engine-run tool calls and these cases were not run there.
	if (major >= 2) {
		addToolCallKeyCases(suite, context);
		addMcpCreateKeyCases(suite, context);
	}
}
