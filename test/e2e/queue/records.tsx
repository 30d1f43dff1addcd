// What the cluster recorded about an execution: its row in PostgreSQL, its Bull job in Redis (the last progress message
// names the worker) and the instance registry in Redis.
import { createRequire } from 'node:module';
import path from 'node:path';

import type { N8nInstall } from '../n8n/n8nInstall';
import type { PrintedRun } from '../runData';
import type { PostgresServer } from './services/postgresServer';
import type { RedisServer } from './services/redisServer';

export interface ExecutionRecord {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
	finished: boolean;
}

export async function executions(postgres: PostgresServer, workflowId?: string): Promise<ExecutionRecord[]> {
	const where = workflowId === undefined ? '' : `WHERE "workflowId" = '${workflowId.replace(/'/g, "''")}'`;
	const rows = await postgres.query<ExecutionRecord & { id: number | string }>(
		`SELECT id, "workflowId", mode, status, finished FROM execution_entity ${where} ORDER BY id`,
	);
	return rows.map((row) => ({ ...row, id: String(row.id) }));
}

/** Polls until the execution has stopped running (bounded), then returns its row. */
export async function finishedExecution(postgres: PostgresServer, isWanted: (row: ExecutionRecord) => boolean, timeoutMs = 60_000): Promise<ExecutionRecord> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const row = (await executions(postgres)).find(isWanted);
		if (row && row.status !== 'new' && row.status !== 'running') return row;
		if (Date.now() > deadline) throw new Error(`no finished execution within ${timeoutMs} ms; last seen: ${JSON.stringify(row ?? null)}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

export interface JobRecord {
	jobId: string;
	executionId: string;
	/** Host id of the process that sent the job's last progress message ("job-finished"). */
	finishedBy?: string;
	finishedOn?: number;
}

interface BullJobHash {
	data?: string;
	progress?: string;
	finishedOn?: string;
}

/** The Bull job that carried an execution through the queue (`bull:jobs:<n>` hashes). */
export async function jobForExecution(redis: RedisServer, executionId: string): Promise<JobRecord | undefined> {
	const keys = (await redis.command('KEYS', 'bull:jobs:[0-9]*')) as string[];
	for (const key of keys) {
		const hash = (await redis.command('HGETALL', key)) as BullJobHash;
		const data = hash.data ? (JSON.parse(hash.data) as { executionId?: string }) : {};
		if (data.executionId !== executionId) continue;
		const progress = hash.progress ? (JSON.parse(hash.progress) as { kind?: string; workerId?: string }) : {};
		return {
			jobId: key.slice('bull:jobs:'.length),
			executionId,
			finishedBy: progress.kind === 'job-finished' ? progress.workerId : undefined,
			finishedOn: hash.finishedOn ? Number(hash.finishedOn) : undefined,
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

/** The run data the worker saved, read with n8n's own `flatted`, in the shape `n8n execute` prints. */
export async function storedRun(postgres: PostgresServer, install: N8nInstall, executionId: string): Promise<PrintedRun> {
	const [row] = await postgres.query<{ data: string }>(`SELECT data FROM execution_data WHERE "executionId" = ${Number(executionId)}`);
	if (!row) throw new Error(`no execution_data row for execution ${executionId}`);
	const flatted = createRequire(path.join(install.dir, 'package.json'))('flatted') as { parse(text: string): unknown };
	return { data: flatted.parse(row.data) as PrintedRun['data'] };
}
