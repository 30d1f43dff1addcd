import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { RequestLogEntry } from '../../sandbox';
import { TestClient } from './testClient';
import { useSandboxClient } from './useSandboxClient';
import { LOAD_TYPESCRIPT } from '../harness/typeScriptNode';

describe('sandbox admin surface', () => {
	const { sandbox, client } = useSandboxClient({ seed: 20 });

	it('serves and clears the request log without logging admin calls, and switches faults (what bench/ drives over HTTP)', async () => {
		sandbox.clearLog();
		await client.get('/tickets?per_page=2');
		await client.raw('GET', '/__sandbox/state');
		const log = (await client.raw('GET', '/__sandbox/log')).json as { data: RequestLogEntry[] };
		expect(log.data).toEqual([
			expect.objectContaining({
				method: 'GET',
				path: '/api/v1/external/tickets?per_page=2',
				query: { per_page: '2' },
				status: 200,
			}),
		]);
		expect((await client.raw('GET', `/__sandbox/log?since=${log.data[0].seq}`)).json).toEqual({
			data: [],
		});
		expect((await client.raw('DELETE', '/__sandbox/log')).status).toBe(204);
		expect(sandbox.log).toHaveLength(0);

		expect(
			(await client.raw('POST', '/__sandbox/faults', '{"rate503":1,"retryAfter":3}')).status,
		).toBe(200);
		expect((await client.get('/tickets')).status).toBe(503);
		expect((await client.raw('POST', '/__sandbox/faults', '{}')).status).toBe(200);
		expect((await client.get('/tickets')).status).toBe(200);
	});

	it('holds an answer while the answer gate says so, then sends it unchanged', async () => {
		let release: () => void = () => undefined;
		const held = new Promise<void>((resolve) => (release = resolve));
		const seen: string[] = [];
		sandbox.setAnswerGate((entry, answer) => {
			seen.push(`${entry.pathname} ${answer.status}`);
			return entry.pathname.endsWith('/tickets') ? held : undefined;
		});
		try {
			const order: string[] = [];
			const list = client.get('/tickets?per_page=1').then((r) => order.push(`list ${r.status}`));
			const one = client.get('/tickets/tkt_1').then((r) => order.push(`one ${r.status}`));
			await one;
			expect(order).toEqual(['one 200']);
			release();
			await list;
			expect(order).toEqual(['one 200', 'list 200']);
			expect(seen.sort()).toEqual([
				'/api/v1/external/tickets 200',
				'/api/v1/external/tickets/tkt_1 200',
			]);
		} finally {
			sandbox.setAnswerGate(undefined);
		}
	});
});

/** Starts the command line with `args`; resolves once it has printed its banner. */
async function startCli(
	args: string[],
): Promise<{ cli: ChildProcess; baseUrl: string; output: string }> {
	const cli = spawn(
		process.execPath,
		[...LOAD_TYPESCRIPT, path.join(__dirname, '../../sandbox/cli.tsx'), '--port', '0', ...args],
		{
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	let output = '';
	cli.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const baseUrl = await new Promise<string>((resolve, reject) => {
		cli.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const match = /base URL\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output);
			if (match && output.includes('Press Ctrl+C')) resolve(match[1]);
		});
		cli.once('exit', () => reject(new Error(`cli exited early: ${output}`)));
	});
	return { cli, baseUrl, output };
}

function stopCli(cli: ChildProcess): Promise<number | null> {
	return new Promise((resolve) => {
		cli.once('exit', (code) => resolve(code));
		cli.kill('SIGTERM');
	});
}

describe('sandbox command line', () => {
	it('starts as the README says: 250 tickets and the default key and secret without --seed, none with --seed 0; exits cleanly on SIGTERM', async () => {
		const seeded = await startCli([]);
		const client = new TestClient(seeded.baseUrl);
		try {
			expect(seeded.output).toContain('seeded     250 tickets');
			const page = (await client.get('/tickets?per_page=100')).json as {
				data: unknown[];
				meta: { has_more: boolean };
			};
			expect([page.data.length, page.meta.has_more]).toEqual([100, true]);
		} finally {
			client.close();
			expect(await stopCli(seeded.cli)).toBe(0);
		}
		const empty = await startCli(['--seed', '0']);
		expect(empty.output).toContain('seeded     0 tickets');
		expect(await stopCli(empty.cli)).toBe(0);
	});
});

describe('sandbox command line, --sort', () => {
	const createdAt = (body: unknown) =>
		(body as { data: Array<{ created_at: string }> }).data.map((r) => r.created_at);
	const oldestFirst = '?sort_by=created_at&sort=asc';

	it.each([
		['tickets', [true, 400]],
		['all', [true, 200]],
		['none', [false, 200]],
	] as const)(
		'--sort %s: the ticket list oldest first when asked, and how the customer list answers',
		async (where, [ticketsAscend, customerStatus]) => {
			const { cli, baseUrl } = await startCli(['--seed', '30', '--sort', where]);
			const client = new TestClient(baseUrl);
			try {
				const tickets = createdAt((await client.get(`/tickets${oldestFirst}`)).json);
				expect(tickets[0] < tickets[tickets.length - 1]).toBe(ticketsAscend);
				expect((await client.get(`/customers${oldestFirst}`)).status).toBe(customerStatus);
			} finally {
				client.close();
				expect(await stopCli(cli)).toBe(0);
			}
		},
	);
});
