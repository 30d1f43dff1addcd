// The sandbox's command line: the switches its README offers for trying the node against other services.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

import { LOAD_TYPESCRIPT } from '../harness/typeScriptNode';
import { TestClient } from './testClient';

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
