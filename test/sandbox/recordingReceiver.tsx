/** Test-only webhook receiver: records every request and answers with the status `respond` picks (default 200). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookPayload } from '../../sandbox/webhooks';

export interface RecordedDelivery {
	path: string;
	headers: http.IncomingHttpHeaders;
	body: string;
	payload: WebhookPayload;
}

export interface RecordingReceiver {
	url: string;
	received: RecordedDelivery[];
	close(): Promise<void>;
}

export async function startRecordingReceiver(
	respond: number | ((delivery: RecordedDelivery) => number) = 200,
): Promise<RecordingReceiver> {
	const received: RecordedDelivery[] = [];
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const body = Buffer.concat(chunks).toString('utf8');
			const delivery = {
				path: request.url ?? '',
				headers: request.headers,
				body,
				payload: JSON.parse(body) as WebhookPayload,
			};
			received.push(delivery);
			response.writeHead(typeof respond === 'number' ? respond : respond(delivery)).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
