// The sandbox's command line: the switches its README offers for trying the node against other services.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

import { LOAD_TYPESCRIPT } from '../harness/typeScriptNode';
import { signForTest } from './testClient';

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

/** A GET signed with the command line's default key and secret. */
async function get(baseUrl: string, path: string): Promise<{ status: number; json: unknown }> {
	const timestamp = String(Math.floor(Date.now() / 1000));
	const signature = signForTest('sandbox-secret', timestamp, 'GET', path, '');
	const headers = {
		'x-api-key': 'sandbox-key',
		'x-api-timestamp': timestamp,
		'x-api-signature': signature,
	};
	const response = await fetch(`${baseUrl}${path}`, { headers });
	return { status: response.status, json: await response.json() };
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
			try {
				const tickets = createdAt(
					(await get(baseUrl, `/api/v1/external/tickets${oldestFirst}`)).json,
				);
				expect(tickets[0] < tickets[tickets.length - 1]).toBe(ticketsAscend);
				const customers = await get(baseUrl, `/api/v1/external/customers${oldestFirst}`);
				expect(customers.status).toBe(customerStatus);
			} finally {
				expect(await stopCli(cli)).toBe(0);
			}
		},
	);
});
