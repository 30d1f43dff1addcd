import {
	createServer,
	request as httpRequest,
	type IncomingHttpHeaders,
	type IncomingMessage,
	type Server,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// Instead of the service's answer: `replace` (not asked), `cutOff` (half the body, then the socket is destroyed), `hang`
// (`forward`: processed first), `reset` (`before` the service sees it or `after` it answered: ECONNRESET).
export type Misbehaviour =
	| { kind: 'replace'; status: number; headers?: Record<string, string>; body?: string }
	| { kind: 'cutOff' }
	| { kind: 'hang'; forward?: boolean }
	| { kind: 'reset'; when: 'before' | 'after' };

export interface MisbehaviourRule {
	method?: string;
	/** Matched against the request target (path and query) as received. */
	path?: RegExp;
	/** How many matching requests misbehave; later matches pass through. */
	times: number;
	answer: Misbehaviour;
}

export interface ReceivedRequest {
	method: string;
	target: string;
	headers: IncomingHttpHeaders;
}

export interface RawServer {
	baseUrl: string;
	/** Every request received, in order. */
	received: ReceivedRequest[];
	stop(): Promise<void>;
}

export interface MisbehavingProxy extends RawServer {
	/** Requests a rule took so far, as `METHOD target`. */
	misbehaved: string[];
	/** Replaces the rules; both request lists start again. */
	setRules(rules: MisbehaviourRule[]): void;
}

/** Listens on a free port of 127.0.0.1; `stop()` destroys the open sockets first. */
async function listen(server: Server): Promise<{ baseUrl: string; stop(): Promise<void> }> {
	const sockets = new Set<Socket>();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		async stop() {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** A plain server on 127.0.0.1 that answers every request with `handle` (a web app, a foreign origin). */
export async function startRawServer(
	handle: (req: IncomingMessage, res: import('node:http').ServerResponse) => void,
): Promise<RawServer> {
	const received: ReceivedRequest[] = [];
	const server = createServer((req, res) => {
		received.push({ method: req.method ?? '', target: req.url ?? '', headers: req.headers });
		req.resume();
		req.on('end', () => handle(req, res));
	});
	return { received, ...(await listen(server)) };
}

/** A pass-through proxy misbehaving on chosen requests as the sandbox cannot; bytes forwarded unchanged, so signatures hold. */
export async function startMisbehavingProxy(targetBaseUrl: string): Promise<MisbehavingProxy> {
	const target = new URL(targetBaseUrl);
	let rules: Array<MisbehaviourRule & { left: number }> = [];
	const received: ReceivedRequest[] = [];
	const misbehaved: string[] = [];

	const take = (req: IncomingMessage): Misbehaviour | undefined => {
		const rule = rules.find(
			(r) =>
				r.left > 0 &&
				(!r.method || r.method === req.method) &&
				(!r.path || r.path.test(req.url ?? '')),
		);
		if (!rule) return undefined;
		rule.left--;
		misbehaved.push(`${req.method} ${req.url}`);
		return rule.answer;
	};

	const forward = (
		req: IncomingMessage,
		onAnswer: (status: number, headers: IncomingHttpHeaders, body: Buffer) => void,
	) => {
		const upstream = httpRequest(
			{
				host: target.hostname,
				port: target.port,
				method: req.method,
				path: req.url,
				headers: req.headers,
			},
			(answer) => {
				const chunks: Buffer[] = [];
				answer.on('data', (chunk: Buffer) => chunks.push(chunk));
				answer.on('end', () =>
					onAnswer(answer.statusCode ?? 502, answer.headers, Buffer.concat(chunks)),
				);
			},
		);
		upstream.on('error', () => req.socket.destroy());
		req.pipe(upstream);
	};

	const server: Server = createServer((req, res) => {
		received.push({ method: req.method ?? '', target: req.url ?? '', headers: req.headers });
		const answer = take(req);
		if (answer?.kind === 'replace') {
			req.resume();
			req.on('end', () => {
				res.writeHead(answer.status, answer.headers ?? {});
				res.end(answer.body ?? '');
			});
			return;
		}
		if (answer?.kind === 'reset' && answer.when === 'before') {
			req.socket.destroy();
			return;
		}
		if (answer?.kind === 'hang') {
			if (answer.forward) forward(req, () => undefined);
			else req.resume();
			return;
		}
		forward(req, (status, headers, body) => {
			if (answer?.kind === 'reset') return void req.socket.destroy();
			if (answer?.kind === 'cutOff') {
				res.writeHead(status, { ...headers, 'content-length': String(body.length) });
				res.write(body.subarray(0, Math.floor(body.length / 2)), () => req.socket.destroy());
				return;
			}
			res.writeHead(status, headers);
			res.end(body);
		});
	});
	return {
		received,
		misbehaved,
		...(await listen(server)),
		setRules(next) {
			rules = next.map((rule) => ({ ...rule, left: rule.times }));
			received.length = 0;
			misbehaved.length = 0;
		},
	};
}
