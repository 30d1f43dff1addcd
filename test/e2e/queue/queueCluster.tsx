import path from 'node:path';

import {
	activateWorkflow,
	type CredentialImport,
	importCredentials,
	importWorkflows,
} from '../n8n/cli';
import type { N8nInstall } from '../n8n/n8nInstall';
import { freePort } from '../n8n/ports';
import { DEV_OWNER, N8nRestClient } from '../n8n/restClient';
import { createUserFolder, installCommunityPackage, type N8nUserFolder } from '../n8n/userFolder';
import type { PackedPackage } from '../packPackage';
import { type PostgresServer, startPostgres } from './services/postgresServer';
import { type RedisServer, startRedis } from './services/redisServer';
import { startService } from './services/serviceProcess';

type Role = 'main' | 'worker' | 'webhook';

/** One running n8n process of the cluster; `url`: the editor and REST API (main), production webhooks (webhook), health checks (worker). */
export type ClusterProcess = Awaited<ReturnType<typeof startRole>>;

export type QueueCluster = Awaited<ReturnType<typeof startCluster>>;

/** The configuration every process of the cluster shares: one database, one queue, one key. */
function sharedQueueEnvironment(
	postgres: PostgresServer,
	redis: RedisServer,
): Record<string, string> {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		DB_POSTGRESDB_DATABASE: postgres.database,
		// Credentials are encrypted by whichever process saves them and decrypted by the worker and
		// the webhook process: all must share the key.
		N8N_ENCRYPTION_KEY: 'queue-e2e-shared-encryption-key',
		// Manual runs from the editor go to the workers too (n8n 3 makes this the only behaviour).
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		// Keep finished jobs in Redis: their record names the worker that ran them (evidence).
		N8N_EXECUTIONS_QUEUE_KEEP_LAST_COMPLETED: '100',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
	};
}

interface RoleSpec {
	args: string[];
	ready: string;
	env: Record<string, string>;
	url: string;
}

async function roleSpecs(): Promise<Record<Role, RoleSpec>> {
	const [mainPort, webhookPort, workerHealthPort, mainBroker, workerBroker] = await Promise.all(
		Array.from({ length: 5 }, freePort),
	);
	const mainUrl = `http://127.0.0.1:${mainPort}`;
	const webhookUrl = `http://127.0.0.1:${webhookPort}`;
	const listen = { N8N_LISTEN_ADDRESS: '127.0.0.1', N8N_HOST: '127.0.0.1', N8N_PROTOCOL: 'http' };
	return {
		main: {
			args: ['start'],
			ready: 'Editor is now accessible',
			url: mainUrl,
			env: {
				N8N_PORT: String(mainPort),
				...listen,
				N8N_EDITOR_BASE_URL: `${mainUrl}/`,
				// The editor shows production webhook URLs on the webhook process…
				N8N_WEBHOOK_URL: `${webhookUrl}/`,
				// …and main does not answer them at all, as n8n's docs recommend behind a load balancer.
				N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
				N8N_SECURE_COOKIE: 'false',
				N8N_RUNNERS_BROKER_PORT: String(mainBroker),
			},
		},
		worker: {
			args: ['worker', '--concurrency=5'],
			ready: 'n8n worker is now ready',
			url: `http://127.0.0.1:${workerHealthPort}`,
			env: {
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(workerHealthPort),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				// The worker runs Code nodes through its own task broker: one port per process on a machine.
				N8N_RUNNERS_BROKER_PORT: String(workerBroker),
			},
		},
		webhook: {
			args: ['webhook'],
			ready: 'Webhook listener waiting for requests',
			url: webhookUrl,
			env: { N8N_PORT: String(webhookPort), ...listen },
		},
	};
}

export interface ClusterOptions {
	install: N8nInstall;
	packed: PackedPackage;
	postgres: PostgresServer;
	redis: RedisServer;
	workDir: string;
}

/** One user folder per process, each with the package installed: a real cluster's processes load it from their own disks. */
export async function createFolders(options: ClusterOptions): Promise<Record<Role, N8nUserFolder>> {
	const shared = sharedQueueEnvironment(options.postgres, options.redis);
	const folders = {} as Record<Role, N8nUserFolder>;
	for (const role of ['main', 'worker', 'webhook'] as const) {
		const folder = createUserFolder(options.install, {
			root: path.join(options.workDir, role),
			encryptionKey: shared.N8N_ENCRYPTION_KEY,
			env: shared,
		});
		await installCommunityPackage(folder, options.packed.tarball, options.packed.version);
		folders[role] = folder;
	}
	return folders;
}

const START_TIMEOUT_MS = 180_000;

async function startRole(role: Role, folder: N8nUserFolder, spec: RoleSpec, workDir: string) {
	const process = startService({
		name: `n8n ${role}`,
		command: folder.install.nodeBin,
		args: [folder.install.n8nBin, ...spec.args],
		cwd: folder.root,
		env: { ...folder.env, ...spec.env },
		logFile: path.join(workDir, `n8n-${role}.log`),
	});
	await process.waitForOutput(spec.ready, START_TIMEOUT_MS).catch(async (error: unknown) => {
		await process.stop();
		throw error;
	});
	return { role, process, url: spec.url };
}

/** Main first (migrations, the active workflows' webhooks in the database), then the worker and the webhook process. */
export async function startCluster(
	folders: Record<Role, N8nUserFolder>,
	workDir: string,
	log: (line: string) => void,
) {
	const specs = await roleSpecs();
	const running: Partial<Record<Role, ClusterProcess>> = {};
	const stopRole = async (role: Role): Promise<void> => {
		await running[role]?.process.stop('SIGTERM', 30_000);
		delete running[role];
	};
	// Entry points first, main last: nothing new is queued while workers wind down.
	const stopAll = async (): Promise<void> => {
		for (const role of ['webhook', 'worker', 'main'] as const) await stopRole(role);
	};
	try {
		for (const role of ['main', 'worker', 'webhook'] as const) {
			running[role] = await startRole(role, folders[role], specs[role], workDir);
			log(`n8n ${role} ready on ${specs[role].url}`);
		}
	} catch (error) {
		await stopAll();
		throw error;
	}
	const get = (role: Role): ClusterProcess => {
		const found = running[role];
		if (!found) throw new Error(`n8n ${role} is not running`);
		return found;
	};
	return {
		get main() {
			return get('main');
		},
		get worker() {
			return get('worker');
		},
		get webhook() {
			return get('webhook');
		},
		/** Stops one process and starts it again with the same folder and ports (a fresh Node process). */
		async restart(role: Role): Promise<ClusterProcess> {
			await stopRole(role);
			running[role] = await startRole(role, folders[role], specs[role], workDir);
			return get(role);
		},
		stop: stopAll,
	};
}

export interface QueueSetUp extends Omit<ClusterOptions, 'postgres' | 'redis'> {
	credentials: (postgres: PostgresServer) => CredentialImport[];
	workflows: Array<{ id: string }>;
	/** Ids of the workflows to publish. */
	active: string[];
}

/** PostgreSQL, Redis and the cluster with the credentials and workflows imported, the owner logged in on main; each stop is pushed to `stops` once started. */
export async function startQueueN8n(
	setUp: QueueSetUp,
	stops: Array<() => Promise<void>>,
	log: (line: string) => void,
) {
	const { install, packed, workDir } = setUp;
	const postgres = await startPostgres(workDir);
	stops.push(postgres.stop);
	const redis = await startRedis(workDir);
	stops.push(redis.stop);
	const folders = await createFolders({ install, packed, postgres, redis, workDir });
	// Set-up commands run against the shared database, as an administrator would from main's machine.
	await importCredentials(folders.main, setUp.credentials(postgres));
	await importWorkflows(folders.main, setUp.workflows);
	for (const id of setUp.active) await activateWorkflow(folders.main, id);
	const cluster = await startCluster(folders, workDir, log);
	stops.push(cluster.stop);
	const rest = new N8nRestClient(cluster.main.url);
	await rest.setupOwner(DEV_OWNER);
	log(
		`n8n ${install.version} in queue mode: main ${cluster.main.url}, webhook process ${cluster.webhook.url}, PostgreSQL ${postgres.version}`,
	);
	return { postgres, redis, cluster, rest };
}
