// What the cluster recorded about an execution: its row in PostgreSQL, its Bull job in Redis (the last progress message
// names the worker) and the instance registry in Redis.
import { waitUntil } from '../../harness/wait';
import { parseExecutionData } from '../n8n/executionData';
import type { N8nInstall } from '../n8n/n8nInstall';
import type { PrintedRun } from '../runData';
import type { PostgresServer } from './services/postgresServer';
import type { RedisServer } from './services/redisServer';

export interface ExecutionRecord {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
}

/** Polls until the wanted execution has stopped running (bounded), then returns its row. */
export async function finishedExecution(
	postgres: PostgresServer,
	isWanted: (row: ExecutionRecord) => boolean,
	timeoutMs = 60_000,
): Promise<ExecutionRecord> {
	let last: ExecutionRecord | undefined;
	return waitUntil(
		'a finished execution',
		async () => {
			const rows = await postgres.query<ExecutionRecord>(
				'SELECT id::text, "workflowId", mode, status FROM execution_entity ORDER BY id',
			);
			last = rows.find(isWanted);
			return last && last.status !== 'new' && last.status !== 'running' ? last : undefined;
		},
		timeoutMs,
		{ intervalMs: 250, seen: () => last ?? null },
	);
}

/** The Bull job that carried an execution through the queue (`bull:jobs:<n>` hashes); `finishedBy`: the host id of the process that sent its "job-finished". */
export async function jobForExecution(
	redis: RedisServer,
	executionId: string,
): Promise<{ jobId: string; finishedBy?: string } | undefined> {
	const keys = (await redis.command('KEYS', 'bull:jobs:[0-9]*')) as string[];
	for (const key of keys) {
		const hash = (await redis.command('HGETALL', key)) as { data?: string; progress?: string };
		const data = hash.data ? (JSON.parse(hash.data) as { executionId?: string }) : {};
		if (data.executionId !== executionId) continue;
		const progress = hash.progress
			? (JSON.parse(hash.progress) as { kind?: string; workerId?: string })
			: {};
		return {
			jobId: key.slice('bull:jobs:'.length),
			finishedBy: progress.kind === 'job-finished' ? progress.workerId : undefined,
		};
	}
	return undefined;
}

export interface InstanceRecord {
	hostId: string;
	instanceType: 'main' | 'worker' | 'webhook';
	version: string;
}

/** The processes that registered with the cluster (n8n's instance registry in Redis). */
export async function registeredInstances(redis: RedisServer): Promise<InstanceRecord[]> {
	const members = (await redis.command('SMEMBERS', 'n8n:{instance:}members')) as string[];
	const instances: InstanceRecord[] = [];
	for (const key of members) {
		const value = (await redis.command('GET', key)) as string | null;
		if (value) instances.push(JSON.parse(value) as InstanceRecord);
	}
	return instances;
}

/** The run data the worker saved, in the shape `n8n execute` prints. */
export async function storedRun(
	postgres: PostgresServer,
	install: N8nInstall,
	executionId: string,
): Promise<PrintedRun> {
	const [row] = await postgres.query<{ data: string }>(
		`SELECT data FROM execution_data WHERE "executionId" = ${Number(executionId)}`,
	);
	if (!row) throw new Error(`no execution_data row for execution ${executionId}`);
	return { data: parseExecutionData(install, row.data) as PrintedRun['data'] };
}
