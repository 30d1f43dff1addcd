import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ResetRule {
	method?: string;
	/** Matched against the request target (path and query) as received. */
	path?: RegExp;
	/** How many matching requests to reset; later matches pass through. */
	times: number;
	/**
	 * `before`: the socket is destroyed before the request reaches the service (nothing processed).
	 * `after`: the request is forwarded, the service answers, and the socket is destroyed instead of
	 * passing that answer on, so the client cannot know the request was processed (the dangerous
	 * case for a create).
	 */
	when: 'before' | 'after';
}

export interface ResettingProxy {
	/** Use as the credential's Base URL. */
	baseUrl: string;
	/** Every request received, as `METHOD target`. */
	requests: string[];
	/** Requests reset so far, as `METHOD target`. */
	resets: string[];
	/** Replaces the rules; counters and both lists start again. */
	setRules(rules: ResetRule[]): void;
	stop(): Promise<void>;
}

/**
 * A pass-through HTTP proxy on 127.0.0.1 in front of the sandbox that drops chosen connections
 * (the client sees ECONNRESET / "socket hang up"), since the sandbox's faults are answers
 * (429/503), not dropped connections. Bytes are forwarded unchanged, so signatures stay valid.
 */
export async function startResettingProxy(targetBaseUrl: string): Promise<ResettingProxy> {
	const target = new URL(targetBaseUrl);
	let rules: Array<ResetRule & { left: number }> = [];
	const requests: string[] = [];
	const resets: string[] = [];
	const sockets = new Set<Socket>();

	const takeReset = (req: IncomingMessage): ResetRule | undefined => {
		const rule = rules.find(
			(r) => r.left > 0 && (!r.method || r.method === req.method) && (!r.path || r.path.test(req.url ?? '')),
		);
		if (!rule) return undefined;
		rule.left--;
		resets.push(`${req.method} ${req.url}`);
		return rule;
	};

	const server: Server = createServer((req, res) => {
		requests.push(`${req.method} ${req.url}`);
		const reset = takeReset(req);
		if (reset?.when === 'before') {
			req.socket.destroy();
			return;
		}
		const upstream = httpRequest(
			{ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
			(answer) => {
				const chunks: Buffer[] = [];
				answer.on('data', (chunk: Buffer) => chunks.push(chunk));
				answer.on('end', () => {
					if (reset) {
						req.socket.destroy();
						return;
					}
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					res.end(Buffer.concat(chunks));
				});
			},
		);
		upstream.on('error', () => req.socket.destroy());
		req.pipe(upstream);
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;

	return {
		baseUrl: `http://127.0.0.1:${port}`,
		requests,
		resets,
		setRules(next) {
			rules = next.map((rule) => ({ ...rule, left: rule.times }));
			requests.length = 0;
			resets.length = 0;
		},
		async stop() {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
