import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// The official MCP client SDK against an MCP Server Trigger: `streamable-http` POSTs to its URL, `sse` opens the event
// stream whose first event names where to POST. Always closed afterwards.
export type McpTransportKind = 'streamable-http' | 'sse';

export async function withMcpClient<T>(
	url: string,
	kind: McpTransportKind,
	use: (client: Client) => Promise<T>,
): Promise<T> {
	const client = new Client({ name: 'n8n-nodes-support-ticket-e2e', version: '1.0.0' });
	const transport =
		kind === 'sse'
			? new SSEClientTransport(new URL(url))
			: new StreamableHTTPClientTransport(new URL(url));
	await client.connect(transport, { timeout: 60_000 });
	try {
		return await use(client);
	} finally {
		await client.close();
	}
}

export function toolResultText(result: Record<string, unknown>): string {
	const parts = Array.isArray(result.content)
		? (result.content as Array<{ type?: string; text?: string }>)
		: [];
	return parts.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
}
