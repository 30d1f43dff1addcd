import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Sandbox } from '../../../sandbox';
import { credentialsFor } from '../../harness';

/** An answer of the service as the gateway holds it before passing it on. */
export interface HeldAnswer {
	status: number;
	headers: IncomingHttpHeaders;
	body: string;
}

// `pass` (or changed by a function), `lost` (processed, the client gets a 502), `refused` (a bare 503, never seen by
// the service), `failed` (a 500, never seen by the service), `lagging` (an empty list, as a replica behind the primary answers).
export type GatewayAnswer =
	| 'pass'
	| 'lost'
	| 'refused'
	| 'failed'
	| 'lagging'
	| ((answer: HeldAnswer) => HeldAnswer | Promise<HeldAnswer>);

/** Counts of the requests seen so far, this one included. */
export interface GatewayRequest {
	method: string;
	target: string;
	posts: number;
	lists: number;
	body: string;
}

const json = { 'content-type': 'application/json' };
/** What a gateway answers when it loses the service's answer. */
export const BAD_GATEWAY: HeldAnswer = {
	status: 502,
	headers: { 'content-type': 'text/html' },
	body: '<html>Bad Gateway</html>',
};
const INTERNAL_ERROR: HeldAnswer = {
	status: 500,
	headers: json,
	body: '{"error":{"code":"internal_error","message":"Something went wrong."}}',
};
/** Processed by the service, then answered 500. */
export const processedThen500: GatewayAnswer = () => INTERNAL_ERROR;
const unseen: Record<'refused' | 'failed' | 'lagging', HeldAnswer> = {
	refused: {
		status: 503,
		headers: { 'content-type': 'text/html' },
		body: '<html>Service Unavailable</html>',
	},
	failed: INTERNAL_ERROR,
	lagging: {
		status: 200,
		headers: json,
		body: '{"data":[],"meta":{"per_page":100,"has_more":false,"next_cursor":null}}',
	},
};

export interface LossyGateway {
	baseUrl: string;
	stop(): Promise<void>;
}

/** A gateway in front of `serviceUrl` on a free loopback port; `decide` picks each request's fate. */
export async function lossyGateway(
	serviceUrl: string,
	decide: (request: GatewayRequest) => GatewayAnswer | Promise<GatewayAnswer>,
): Promise<LossyGateway> {
	let posts = 0;
	let lists = 0;
	const server: Server = createServer((incoming, outgoing) => {
		const method = incoming.method ?? 'GET';
		if (method === 'POST') posts++;
		else lists++;
		const seen = { method, target: incoming.url ?? '/', posts, lists };
		const received: Buffer[] = [];
		incoming.on('data', (chunk: Buffer) => received.push(chunk));
		incoming.on('end', () => void pass(Buffer.concat(received)));
		const pass = async (body: Buffer) => {
			const fate = await decide({ ...seen, body: body.toString('utf8') });
			if (fate === 'refused' || fate === 'failed' || fate === 'lagging') {
				const { status, headers, body } = unseen[fate];
				outgoing.writeHead(status, headers).end(body);
				return;
			}
			const forward = request(
				`${serviceUrl}${incoming.url}`,
				{ method, headers: incoming.headers },
				(answer) => {
					const chunks: Buffer[] = [];
					answer.on('data', (chunk: Buffer) => chunks.push(chunk));
					answer.on('end', () => {
						void (async () => {
							const held: HeldAnswer = {
								status: answer.statusCode ?? 502,
								headers: answer.headers,
								body: Buffer.concat(chunks).toString('utf8'),
							};
							const sent =
								fate === 'pass' ? held : fate === 'lost' ? BAD_GATEWAY : await fate(held);
							const headers = { ...sent.headers };
							delete headers['content-length'];
							outgoing.writeHead(sent.status, headers).end(sent.body);
						})();
					});
				},
			);
			forward.end(body);
		};
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		async stop() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** A gateway in front of the sandbox for one test, stopped after it; gives the credentials through it. */
export function useGateway(sandbox: Sandbox) {
	let current: LossyGateway | undefined;
	afterEach(async () => {
		await current?.stop();
		current = undefined;
	});
	return async (decide: (request: GatewayRequest) => GatewayAnswer | Promise<GatewayAnswer>) => {
		current = await lossyGateway(sandbox.baseUrl, decide);
		return credentialsFor(sandbox, current.baseUrl);
	};
}
