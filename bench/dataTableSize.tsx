/**
 * `npm run bench -- --data-tables`: where n8n's Data Tables end for a copy of the helpdesk. Writes
 * bench/data-table-results.md.
 *
 *   node build/bench/dataTableSize.js [--rows 20000] [--out bench/data-table-results.md]
 *
 * 1. Bytes per stored ticket row as n8n counts them against N8N_DATA_TABLES_MAX_SIZE_BYTES
 *    (GET /rest/data-tables-global/limits; on SQLite, the pages dbstat gives the table), for the
 *    sync examples' ticket columns at two description lengths, so how many tickets fit under the
 *    default limit of n8n 2.41.1.
 * 2. What a write past the limit gets: n8n restarted with a small limit, rows inserted 1,000 at a
 *    time until one insert is refused; the rows kept, the size reached and n8n's message.
 */
import { writeFileSync } from 'node:fs';

import { ensureN8n, PRIMARY_N8N_VERSION } from '../test/e2e/n8n/n8nInstall';
import { DEV_OWNER, N8nRestClient } from '../test/e2e/n8n/restClient';
import { startN8n } from '../test/e2e/n8n/server';
import { createUserFolder, removeUserFolder } from '../test/e2e/n8n/userFolder';
import { repoPath } from '../test/harness';
import { checkOptions, option, startRun, table } from './report';

/** The ticket columns of examples/sync-initial-import.json (`st_tickets`). */
const COLUMNS = [
	...[
		'ticket_id',
		'subject',
		'description',
		'status',
		'priority',
		'customer_id',
		'created_at',
		'updated_at',
	].map((name) => ({ name, type: 'string' })),
	{ name: 'updated_ms', type: 'number' },
];
const DESCRIPTION_LENGTHS = [500, 2_000];
const BATCH = 1_000;
const MIB = 2 ** 20;
/** n8n 2.41.1's default N8N_DATA_TABLES_MAX_SIZE_BYTES (packages/@n8n/config, data-table.config). */
const DEFAULT_LIMIT_BYTES = 200 * MIB;
const SMALL_LIMIT_BYTES = 4 * MIB;
const log = (line: string): void => console.log(line);

const WORDS =
	'the customer reports that the invoice export fails after login when the account has more than one workspace and the browser cache was cleared please advise'.split(
		' ',
	);

/** A ticket row as the sync examples store it; `descriptionLength` characters of words. */
function ticketRow(n: number, descriptionLength: number): Record<string, string | number> {
	let description = '';
	for (let i = n; description.length < descriptionLength; i++)
		description += `${WORDS[i % WORDS.length]} `;
	const at = new Date(Date.UTC(2026, 0, 1) + n * 61_000).toISOString();
	return {
		ticket_id: `tkt_${100000 + n}`,
		subject: `Invoice export fails for workspace ${n % 977} after login`,
		description: description.slice(0, descriptionLength),
		status: ['open', 'pending', 'solved'][n % 3],
		priority: ['low', 'normal', 'high'][n % 3],
		customer_id: `cus_${10000 + (n % 5000)}`,
		created_at: at,
		updated_at: at,
		updated_ms: Date.parse(at),
	};
}

type Limits = {
	totalBytes: number;
	dataTables: Record<string, { id: string; name: string; sizeBytes: number }>;
};

async function expectData<T>(
	rest: N8nRestClient,
	method: string,
	path: string,
	body?: unknown,
): Promise<T> {
	const response = await rest.request<{ data: T }>(method, path, body);
	if (response.status !== 200)
		throw new Error(
			`${method} /rest${path} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 500)}`,
		);
	return response.body.data;
}

/** A fresh n8n with its owner, and the id of the owner's project. */
async function freshN8n(env: Record<string, string>) {
	const install = await ensureN8n(PRIMARY_N8N_VERSION, log);
	const folder = createUserFolder(install, { env });
	const running = await startN8n(folder);
	const rest = new N8nRestClient(running.url);
	await rest.setupOwner(DEV_OWNER);
	const project = await expectData<{ id: string }>(rest, 'GET', '/projects/personal');
	const stop = async () => {
		await running.stop();
		removeUserFolder(folder);
	};
	const createTable = async (name: string) =>
		(
			await expectData<{ id: string }>(rest, 'POST', `/projects/${project.id}/data-tables`, {
				name,
				columns: COLUMNS,
			})
		).id;
	const insert = (tableId: string, rows: unknown[]) =>
		rest.request<{ data?: unknown; message?: string }>(
			'POST',
			`/projects/${project.id}/data-tables/${tableId}/insert`,
			{ data: rows },
		);
	return { version: install.version, rest, stop, createTable, insert };
}

type SizeFigure = { descriptionLength: number; rows: number; bytes: number };

async function measureRowSizes(rows: number): Promise<SizeFigure[]> {
	const n8n = await freshN8n({});
	try {
		const figures: SizeFigure[] = [];
		for (const descriptionLength of DESCRIPTION_LENGTHS) {
			const tableId = await n8n.createTable(`size_probe_${descriptionLength}`);
			for (let start = 0; start < rows; start += BATCH) {
				const batch = Array.from({ length: Math.min(BATCH, rows - start) }, (_, i) =>
					ticketRow(start + i, descriptionLength),
				);
				const answer = await n8n.insert(tableId, batch);
				if (answer.status !== 200)
					throw new Error(
						`insert answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`,
					);
			}
			const limits = await expectData<Limits>(n8n.rest, 'GET', '/data-tables-global/limits');
			const bytes = limits.dataTables[tableId]?.sizeBytes;
			if (bytes === undefined)
				throw new Error(`no size for table ${tableId}: ${JSON.stringify(limits)}`);
			figures.push({ descriptionLength, rows, bytes });
			log(
				`description ${descriptionLength} characters: ${rows} rows, ${bytes} bytes, ${(bytes / rows).toFixed(0)} bytes per row`,
			);
		}
		return figures;
	} finally {
		await n8n.stop();
	}
}

type LimitFigure = {
	limitBytes: number;
	rowsKept: number;
	bytesAtRefusal: number;
	status: number;
	message: string;
	oneRowAfterwards: number;
};

async function measureLimit(): Promise<LimitFigure> {
	const n8n = await freshN8n({ N8N_DATA_TABLES_MAX_SIZE_BYTES: String(SMALL_LIMIT_BYTES) });
	try {
		const tableId = await n8n.createTable('limit_probe');
		let rowsKept = 0;
		// Bounded: 4 MiB holds a few thousand rows; 200 batches is far past it.
		for (let batch = 0; batch < 200; batch++) {
			const rows = Array.from({ length: BATCH }, (_, i) =>
				ticketRow(rowsKept + i, DESCRIPTION_LENGTHS[0]),
			);
			const answer = await n8n.insert(tableId, rows);
			if (answer.status !== 200) {
				const limits = await expectData<Limits>(n8n.rest, 'GET', '/data-tables-global/limits');
				const body = answer.body as { message?: string } | string;
				const message = typeof body === 'string' ? body : (body.message ?? JSON.stringify(body));
				log(
					`refused after ${rowsKept} rows at ${limits.totalBytes} bytes: ${answer.status} ${message}`,
				);
				// A single row into a new table afterwards: is the limit per table or for the instance?
				const other = await n8n
					.createTable('limit_probe_other')
					.catch((error: unknown) => String(error));
				const oneRowAfterwards = other.startsWith('Error')
					? 0
					: (await n8n.insert(other, [ticketRow(0, 10)])).status;
				return {
					limitBytes: SMALL_LIMIT_BYTES,
					rowsKept,
					bytesAtRefusal: limits.totalBytes,
					status: answer.status,
					message,
					oneRowAfterwards,
				};
			}
			rowsKept += BATCH;
		}
		throw new Error(
			`no insert was refused after ${rowsKept} rows under a ${SMALL_LIMIT_BYTES}-byte limit`,
		);
	} finally {
		await n8n.stop();
	}
}

function render(
	run: ReturnType<ReturnType<typeof startRun>['finish']>,
	version: string,
	sizes: SizeFigure[],
	limit: LimitFigure,
): string {
	const perRow = (f: SizeFigure): number => f.bytes / f.rows;
	const fit = (f: SizeFigure): string =>
		`${Math.floor(DEFAULT_LIMIT_BYTES / perRow(f) / 1000).toLocaleString('en')}k`;
	return `${[
		'# Where Data Tables end: bytes per stored ticket',
		`Written by \`${run.command}\` on ${run.startedAt.toISOString()} in ${Math.round(run.durationSeconds)} s (n8n ${version}, SQLite). Machine: ${run.machine}`,
		`Rows with the ticket columns of the sync examples (\`st_tickets\`: 8 text columns and \`updated_ms\`), a subject of ~45 characters, inserted ${BATCH.toLocaleString('en')} at a time through n8n's REST API; size as n8n counts it against \`N8N_DATA_TABLES_MAX_SIZE_BYTES\` (\`GET /rest/data-tables-global/limits\`, SQLite's \`dbstat\` pages of the table).`,
		table(
			[
				'description length',
				'rows',
				'table bytes',
				'bytes per ticket',
				`tickets under the default ${DEFAULT_LIMIT_BYTES / MIB} MiB`,
			],
			sizes.map((f) => [
				`${f.descriptionLength.toLocaleString('en')} characters`,
				f.rows.toLocaleString('en'),
				f.bytes.toLocaleString('en'),
				Math.round(perRow(f)).toLocaleString('en'),
				fit(f),
			]),
		),
		'The limit counts every Data Table of the instance together (customers and the sync state included; a customer row is far smaller than a ticket row).',
		'## At the limit',
		`n8n restarted with \`N8N_DATA_TABLES_MAX_SIZE_BYTES=${limit.limitBytes}\` (${limit.limitBytes / MIB} MiB), rows inserted ${BATCH.toLocaleString('en')} at a time: ${limit.rowsKept.toLocaleString('en')} rows were kept, the tables measured ${limit.bytesAtRefusal.toLocaleString('en')} bytes when the next insert was refused with HTTP ${limit.status}:`,
		`> ${limit.message}`,
		`Afterwards one row into another, new table was answered HTTP ${limit.oneRowAfterwards || 'error (the table could not be created)'}: the limit is for the instance, not per table. n8n checks the size before a write, from a figure it caches for a few seconds, so a write can pass the limit by what was written meanwhile. Raise the limit with \`N8N_DATA_TABLES_MAX_SIZE_BYTES\` (bytes) on every n8n process (main and workers in queue mode).`,
	].join('\n\n')}\n`;
}

async function main(): Promise<void> {
	checkOptions(['rows', 'out']);
	const rows = Number(option('rows', '20000'));
	const out = option('out', repoPath('bench', 'data-table-results.md'));
	const run = startRun('--data-tables');
	const sizes = await measureRowSizes(rows);
	const limit = await measureLimit();
	writeFileSync(out, render(run.finish(), PRIMARY_N8N_VERSION, sizes, limit));
	log(`wrote ${out}`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
