import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { freePort } from '../../n8n/ports';
import { startService } from './serviceProcess';

const execFileAsync = promisify(execFile);

/** A throwaway Redis (Debian's redis-server) on a free loopback port, nothing persisted. */
export type RedisServer = Awaited<ReturnType<typeof startRedis>>;

export async function startRedis(workDir: string) {
	const host = '127.0.0.1';
	const port = await freePort();
	const server = startService({
		name: 'redis-server',
		command: 'redis-server',
		// No config file: only what is given here. Nothing is written to disk.
		args: [
			...`--port ${port} --bind ${host} --appendonly no --daemonize no --protected-mode yes`.split(
				' ',
			),
			...['--save', '', '--dir', workDir],
		],
		logFile: path.join(workDir, 'redis.log'),
	});
	const stop = (): Promise<void> => server.stop('SIGTERM', 10_000);
	/** One command with redis-cli; its reply as JSON (RESP3: hashes become objects). */
	const command = async (...args: string[]): Promise<unknown> => {
		const { stdout } = await execFileAsync(
			'redis-cli',
			['-h', host, '-p', String(port), '--json', ...args],
			{ timeout: 10_000 },
		);
		return JSON.parse(stdout) as unknown;
	};
	try {
		await server.waitForOutput('Ready to accept connections', 30_000);
		const pong = await command('PING');
		if (pong !== 'PONG') throw new Error(`redis-cli PING answered ${JSON.stringify(pong)}`);
	} catch (error) {
		await stop();
		throw error;
	}
	return { host, port, command, stop };
}
