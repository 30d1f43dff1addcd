/**
 * STAND-IN until the sandbox's webhook chaos (branch chaos) lands: a relay between the sandbox and
 * n8n that answers the sandbox at once and forwards each delivery to n8n unchanged (same path, so the
 * signature stays valid), dropping some, sending some twice, and shuffling within a window.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { createRandom } from '../../sandbox/prng';

export interface ChaosCounters {
	received: number;
	delivered: number;
	dropped: number;
	duplicated: number;
	reordered: number;
	failed: number;
}

export interface ChaosRelay {
	url: string;
	counters: ChaosCounters;
	/** Forwards what is held and waits for every forward to finish. */
	flush(): Promise<void>;
	stop(): Promise<void>;
}

interface Held {
	seq: number;
	path: string;
	headers: Record<string, string>;
	body: Buffer;
}

export async function startChaosRelay(target: string, options: { seed: number; dropRate: number; duplicateRate: number; window: number }): Promise<ChaosRelay> {
	const random = createRandom(options.seed);
	const counters: ChaosCounters = { received: 0, delivered: 0, dropped: 0, duplicated: 0, reordered: 0, failed: 0 };
	const held: Held[] = [];
	const pending = new Set<Promise<void>>();
	let lastForwarded = 0;
	const forward = (delivery: Held): void => {
		if (delivery.seq < lastForwarded) counters.reordered++;
		lastForwarded = Math.max(lastForwarded, delivery.seq);
		const run = fetch(target + delivery.path, { method: 'POST', headers: delivery.headers, body: delivery.body, signal: AbortSignal.timeout(60_000) })
			.then(async (response) => {
				await response.arrayBuffer();
				if (response.ok) counters.delivered++;
				else counters.failed++;
			})
			.catch(() => {
				counters.failed++;
			});
		pending.add(run);
		void run.finally(() => pending.delete(run));
	};
	const release = (all: boolean): void => {
		while (held.length > (all ? 0 : options.window)) {
			const [delivery] = held.splice(Math.floor(random() * held.length), 1);
			forward(delivery);
			if (random() < options.duplicateRate) {
				counters.duplicated++;
				forward(delivery);
			}
		}
	};
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			counters.received++;
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
			if (random() < options.dropRate) {
				counters.dropped++;
				return;
			}
			const headers: Record<string, string> = {};
			for (const name of ['content-type', 'x-api-key', 'x-api-timestamp', 'x-api-signature', 'x-event-id']) {
				const value = req.headers[name];
				if (typeof value === 'string') headers[name] = value;
			}
			held.push({ seq: counters.received, path: req.url ?? '/', headers, body: Buffer.concat(chunks) });
			release(false);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const flush = async (): Promise<void> => {
		release(true);
		while (pending.size > 0) await Promise.allSettled([...pending]);
	};
	return {
		url: `http://127.0.0.1:${port}`,
		counters,
		flush,
		async stop() {
			await flush();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
