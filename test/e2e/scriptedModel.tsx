import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

// A scripted OpenAI-compatible model for n8n's OpenAI Chat Model: each completion answers the script's next turn; every
// request is recorded, so a test reads what the model was offered and got back.
export type ScriptedTurn =
	| { toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> }
	| { content: string };

export interface ModelRequest {
	method: string;
	path: string;
	authorization?: string;
	body?: ChatRequest;
}

export interface ChatMessage {
	role: string;
	content?: string | null | Array<{ type: string; text?: string }>;
	tool_call_id?: string;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

export interface ChatRequest {
	model: string;
	messages: ChatMessage[];
	stream?: boolean;
	tools?: Array<{
		type: string;
		function: { name: string; description?: string; parameters?: JsonSchema };
	}>;
}

export interface JsonSchema {
	type?: string;
	description?: string;
	properties?: Record<string, JsonSchema>;
	required?: string[];
	additionalProperties?: boolean;
}

const SCRIPTED_MODEL_ID = 'scripted-model';

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

function completion(turn: ScriptedTurn, index: number): unknown {
	const message =
		'content' in turn
			? { role: 'assistant', content: turn.content }
			: {
					role: 'assistant',
					content: null,
					tool_calls: turn.toolCalls.map((call, n) => ({
						id: `call_${index}_${n}`,
						type: 'function',
						function: { name: call.name, arguments: JSON.stringify(call.arguments) },
					})),
				};
	return {
		id: `chatcmpl-${index}`,
		object: 'chat.completion',
		created: 1_700_000_000 + index,
		model: SCRIPTED_MODEL_ID,
		choices: [{ index: 0, message, finish_reason: 'content' in turn ? 'stop' : 'tool_calls' }],
		usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
	};
}

/** Answers the i-th chat request with `script[i]`; a request past the script gets a 500 that says so. */
export async function startScriptedModel(script: ScriptedTurn[]) {
	const requests: ModelRequest[] = [];
	let turns = 0;
	const answer = (req: IncomingMessage, text: string, request: ModelRequest): [number, unknown] => {
		const fail = (status: number, message: string, type = 'invalid_request_error') =>
			[status, { error: { message, type } }] as [number, unknown];
		if (req.method !== 'POST' || request.path !== '/v1/chat/completions')
			return fail(404, `the scripted model has no ${req.method} ${request.path}`);
		request.body = JSON.parse(text) as ChatRequest;
		if (request.body.stream) return fail(400, 'the scripted model does not stream');
		const index = turns++;
		const tooMany = `the script has ${script.length} turns; request ${index + 1} is one too many`;
		if (!script[index]) return fail(500, tooMany, 'server_error');
		return [200, completion(script[index], index)];
	};
	const server = createServer((req, res) => {
		void readBody(req).then((text) => {
			const request: ModelRequest = {
				method: req.method ?? '',
				path: (req.url ?? '').split('?')[0],
				authorization: req.headers.authorization,
			};
			requests.push(request);
			const [status, body] = answer(req, text, request);
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(body));
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address() as AddressInfo;
	return {
		/** The credential's Base URL. */
		baseUrl: `http://127.0.0.1:${port}/v1`,
		requests,
		/** The chat completion requests, in order. */
		chats: (): ChatRequest[] => requests.flatMap((r) => (r.body ? [r.body] : [])),
		stop: (): Promise<void> =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** A message's text, whether n8n sent it as a string or as content parts. */
export function messageText(message: ChatMessage): string {
	if (typeof message.content === 'string') return message.content;
	return (message.content ?? []).map((part) => part.text ?? '').join('');
}
