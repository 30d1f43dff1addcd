import { execFile, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { freePort } from '../../n8n/ports';
import { type ServiceProcess, startService } from './serviceProcess';

const execFileAsync = promisify(execFile);

/** A throwaway PostgreSQL cluster (Debian's packages) on a free loopback port. */
export type PostgresServer = Awaited<ReturnType<typeof startPostgres>>;

const USER = 'n8n';
const DATABASE = 'n8n';

/** Debian's server binaries under /usr/lib/postgresql/<major>/bin; QUEUE_E2E_POSTGRES_BIN names another bin folder. */
function serverBinDir(): { dir: string; version: string } {
	const override = process.env.QUEUE_E2E_POSTGRES_BIN;
	if (override) {
		const reported = execFileSync(path.join(override, 'postgres'), ['--version'], {
			encoding: 'utf8',
		});
		return { dir: override, version: reported.replace(/^.*\)\s*/, '').trim() };
	}
	const root = '/usr/lib/postgresql';
	const versions = existsSync(root)
		? readdirSync(root)
				.filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	if (versions.length === 0)
		throw new Error(
			'PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)',
		);
	return { dir: path.join(root, versions[0], 'bin'), version: versions[0] };
}

/** PostgreSQL refuses to run as root: then the cluster belongs to Debian's `postgres` user. */
function runAs(): { uid: number; gid: number } | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
	const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
	return { uid, gid };
}

export async function startPostgres(workDir: string) {
	const { dir: bin, version } = serverBinDir();
	const host = '127.0.0.1';
	const port = await freePort();
	const owner = runAs();
	// Its own folder outside workDir, which (a private temp folder of root) the postgres user cannot enter.
	const clusterDir = mkdtempSync(path.join(tmpdir(), 'queue-e2e-postgres-'));
	let server: ServiceProcess | undefined;
	const stop = async (): Promise<void> => {
		await server?.stop();
		rmSync(clusterDir, { recursive: true, force: true });
	};
	try {
		if (owner) chownSync(clusterDir, owner.uid, owner.gid);
		const dataDir = path.join(clusterDir, 'data');
		// Trust on loopback only: a throwaway cluster that lives as long as the suite.
		const initdb = [
			'-D',
			dataDir,
			...`-U ${USER} -A trust -E UTF8 --locale=C.UTF-8 --no-sync`.split(' '),
		];
		execFileSync(path.join(bin, 'initdb'), initdb, { stdio: 'pipe', ...owner, cwd: clusterDir });
		server = startService({
			name: 'postgres',
			command: path.join(bin, 'postgres'),
			// The socket goes into the cluster folder (the system's /var/run/postgresql may not exist);
			// fsync off: the data is thrown away at the end.
			args: [
				'-D',
				dataDir,
				'-k',
				clusterDir,
				...`-p ${port} -c listen_addresses=${host} -c fsync=off`.split(' '),
			],
			cwd: clusterDir,
			logFile: path.join(workDir, 'postgres.log'),
			...owner,
			// PostgreSQL's "fast" shutdown: it does not wait for clients to disconnect.
			stopSignal: 'SIGINT',
		});
		await server.waitForOutput('database system is ready to accept connections', 60_000);
		let scripts = 0;
		const psqlArgs = (database: string) =>
			`-h ${host} -p ${port} -U ${USER} -d ${database} -X -q -A -t -v ON_ERROR_STOP=1`.split(' ');
		/** `input`: `-c <sql>` or `-f <file>`. */
		const psql = async (database: string, ...input: ['-c' | '-f', string]): Promise<string> => {
			const { stdout } = await execFileAsync('psql', [...psqlArgs(database), ...input], {
				timeout: 30_000,
				maxBuffer: 64 * 1024 * 1024,
			});
			return stdout;
		};
		await psql('postgres', '-c', `CREATE DATABASE ${DATABASE}`);
		return {
			host,
			port,
			user: USER,
			database: DATABASE,
			version,
			/** Runs one query and returns its rows as objects (`json_agg` of the query). */
			query: async <Row,>(sql: string): Promise<Row[]> =>
				JSON.parse(
					await psql(DATABASE, '-c', `SELECT coalesce(json_agg(q), '[]'::json) FROM (${sql}) q`),
				) as Row[],
			/** Locks `table` (ACCESS EXCLUSIVE) in a session of its own: every statement on it waits until release(). */
			lockTable: async (table: string): Promise<{ release(): Promise<void> }> => {
				const session = spawn('psql', psqlArgs(DATABASE), { stdio: ['pipe', 'pipe', 'pipe'] });
				let output = '';
				const exited = new Promise<number | null>((resolve) => session.once('exit', resolve));
				const locked = new Promise<void>((resolve, reject) => {
					session.stdout.on('data', (chunk: Buffer) => {
						output += chunk.toString();
						if (output.includes('locked')) resolve();
					});
					session.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
					void exited.then((code) =>
						reject(new Error(`psql ended (${code}) before it locked ${table}: ${output}`)),
					);
				});
				session.stdin.write(
					`BEGIN;\nLOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE;\nSELECT 'locked';\n`,
				);
				const timer = setTimeout(() => session.kill(), 30_000);
				await locked.finally(() => clearTimeout(timer));
				return {
					release: async () => {
						session.stdin.end('COMMIT;\n');
						const end = setTimeout(() => session.kill(), 30_000);
						const code = await exited.finally(() => clearTimeout(end));
						if (code !== 0)
							throw new Error(`psql ended (${code}) while holding ${table}: ${output}`);
					},
				};
			},
			/** Runs statements one after another in one session (`psql -f`), and returns what they print, a line per row. */
			script: async (sql: string): Promise<string[]> => {
				const file = path.join(clusterDir, `script-${++scripts}.sql`);
				writeFileSync(file, sql);
				try {
					return (await psql(DATABASE, '-f', file)).split('\n').filter((line) => line !== '');
				} finally {
					rmSync(file, { force: true });
				}
			},
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}
