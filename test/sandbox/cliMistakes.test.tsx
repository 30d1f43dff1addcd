import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';

import { flagsTakenByNpm } from '../../sandbox/cliMistakes';
import { LOAD_TYPESCRIPT } from '../harness/typeScriptNode';

/** Runs the command line to its exit: its exit code and all it printed. */
function runCli(args: string[], env: NodeJS.ProcessEnv = {}) {
	const cli = spawn(
		process.execPath,
		[...LOAD_TYPESCRIPT, path.join(__dirname, '../../sandbox/cli.tsx'), ...args],
		{ stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
	);
	let output = '';
	cli.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	cli.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	return new Promise<{ code: number | null; output: string }>((resolve) =>
		cli.once('exit', (code) => resolve({ code, output })),
	);
}

describe('sandbox command line, first mistakes', () => {
	it('a port in use: says so and how to pick another, without a stack trace', async () => {
		const taken = createServer();
		await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
		const { port } = taken.address() as AddressInfo;
		try {
			const { code, output } = await runCli(['--port', String(port), '--seed', '0']);
			expect(code).toBe(1);
			expect(output).toContain(`port ${port} is in use`);
			expect(output).toContain(`npm run sandbox -- --port ${port + 1}`);
			expect(output).not.toMatch(/EADDRINUSE|\n\s+at /);
		} finally {
			taken.close();
		}
	});

	it('`npm run sandbox --seed 0` (npm kept --seed, passed on 0): names the --', async () => {
		const { code, output } = await runCli(['0'], { npm_config_seed: 'true' });
		expect(code).toBe(2);
		expect(output).toContain('did you mean `npm run sandbox -- --seed 0`?');
	});

	it('pairs a value with its flag only when it can tell which', () => {
		const usage = '  --port N   port\n  --seed N   tickets\n  --seed-random N   seed';
		expect(flagsTakenByNpm(usage, [], {})).toBeUndefined();
		expect(flagsTakenByNpm(usage, [], { npm_config_seed: '5' })).toContain(
			'`npm run sandbox -- --seed 5`',
		);
		expect(
			flagsTakenByNpm(usage, ['1', '2'], {
				npm_config_port: 'true',
				npm_config_seed_random: 'true',
			}),
		).toContain('`npm run sandbox -- --port N --seed-random N`');
	});
});
