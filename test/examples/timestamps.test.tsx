// The examples read the service's timestamps with one reader, the same text in each (workflow files share no module):
// taken from every example file as it ships and held to the node's own table of formats.
import { readdirSync } from 'node:fs';

import type { IDataObject, INode } from 'n8n-workflow';

import { parseServiceTimestamp } from '../../nodes/shared/parameters/serviceTimestamp';
import { repoPath, type WorkflowJson } from '../harness';
import { startRawServer, type RawServer } from '../harness/misbehavingProxy';
import { TIMESTAMP_FORMATS, type JsonValue } from '../nodes/shared/parameters/timestampFormats';
import { DataTables, runExample } from './dataTableExamples';
import { load, named, queryParameters } from './postgresExamples';

const READER_START = '(v) => { const t = String(v).trim();';
const UNREADABLE =
	/^Cannot read timestamp .* \(ISO 8601 or Unix time expected\): record not written$/;

interface Found {
	file: string;
	node: string;
	text: string;
}

const examples = readdirSync(repoPath('examples'))
	.filter((file) => file.endsWith('.json'))
	.map((file) => ({ file, workflow: load(file) }));

/** Every text in a node's parameters. */
function texts(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (value && typeof value === 'object') return Object.values(value).flatMap(texts);
	return [];
}

const workingNodes = (workflow: WorkflowJson): INode[] =>
	workflow.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote');

/** Each reader in a text, from READER_START to its closing brace (the braces in its regular expressions pair up too). */
function readersIn(text: string): string[] {
	const found: string[] = [];
	for (
		let start = text.indexOf(READER_START);
		start >= 0;
		start = text.indexOf(READER_START, start + 1)
	) {
		let depth = 0;
		for (let i = start; i < text.length; i++) {
			if (text[i] === '{') depth++;
			if (text[i] === '}' && --depth === 0) {
				found.push(text.slice(start, i + 1));
				break;
			}
		}
	}
	return found;
}

const readers: Found[] = examples.flatMap(({ file, workflow }) =>
	workingNodes(workflow).flatMap((node) =>
		texts(node.parameters).flatMap((text) =>
			readersIn(text).map((reader) => ({ file, node: node.name, text: reader })),
		),
	),
);

type Reader = (value: unknown) => unknown;
const reader = new Function(`return ${readers[0]?.text ?? 'undefined'};`)() as Reader;

/** What the node makes of a value: epoch ms, or 'unreadable'. */
const byNode = (value: unknown) => parseServiceTimestamp(value) ?? 'unreadable';
/** What the examples' reader makes of it: epoch ms, or 'unreadable' when it gives its message instead of a number. */
const byExamples = (value: unknown) => {
	const read = reader(value);
	if (typeof read === 'number') return read;
	expect(read).toMatch(UNREADABLE);
	return 'unreadable';
};

describe("the examples' timestamp reader", () => {
	it('is one text, in every example that stores updated_ms, and nothing else in them reads a time', () => {
		const storing = examples
			.filter(({ workflow }) =>
				workingNodes(workflow).some((node) =>
					JSON.stringify(node.parameters).includes('updated_ms'),
				),
			)
			.map(({ file }) => file);
		expect(storing.length).toBeGreaterThanOrEqual(10);
		expect(storing.filter((file) => !readers.some((r) => r.file === file))).toEqual([]);
		expect(new Set(readers.map((r) => r.text)).size).toBe(1);
		const otherReading = examples.flatMap(({ file, workflow }) =>
			workingNodes(workflow).flatMap((node) =>
				texts(node.parameters)
					.map((text) => readersIn(text).reduce((rest, r) => rest.replace(r, ''), text))
					.filter((rest) => /Date\.parse|toMillis|DateTime|getTime/.test(rest))
					.map(() => `${file}: ${node.name}`),
			),
		);
		expect(otherReading).toEqual([]);
	});

	it.each(TIMESTAMP_FORMATS)('%s', (_name, value, expected) => {
		expect(byExamples(value)).toBe(expected);
	});

	it('reads as the node beyond the table: every combination of these dates, times and zones, and numbers around the limits', () => {
		const dates = [
			'2026-11-02',
			'2024-02-29',
			'2025-02-29',
			'2026-04-31',
			'2026-00-10',
			'2026-11-00',
			'0000-01-01',
			'9999-12-31',
			'2026-1-02',
		];
		const times = [
			'',
			'T10:00',
			't10:00:00',
			' 23:59:59.5',
			'T10:00:00.123456',
			'T24:00',
			'T24:00:01',
			'T25:00',
			'T10:60',
			'T10:00:60',
			'T1:00',
			'T10:00:00.',
		];
		const zones = [
			'',
			'Z',
			'z',
			'+02',
			'-02',
			'+0530',
			'-05:30',
			'+14:00',
			'+2',
			'+02:',
			'+02:3',
			' +02:00',
			' GMT',
			' UTC',
			'+24:00',
			'+99',
			' PST',
		];
		const values: JsonValue[] = dates.flatMap((date) =>
			times.flatMap((time) => zones.map((zone) => `${date}${time}${zone}`)),
		);
		const numbers = [0, -1, 1.5, 99_999_999, 1e8, 1e11 - 1, 1e11, 1e11 + 0.5, -1e11, 1e21, -0];
		values.push(
			...numbers,
			...numbers.map(String),
			'999999999',
			'-999999999',
			' 123456789.25 ',
			'1e11',
			'+123456789',
			'0x12345678',
		);
		values.push(
			'Tue, 03 Nov 2026 10:00:00 GMT',
			'Tue Nov 03 2026 10:00:00 GMT+0200',
			'2026-11-03T10:00:00 +0200',
			'Nov 3 2026 UTC',
		);
		const disagreeing = values
			.filter((value) => byExamples(value) !== byNode(value))
			.map(
				(value) => `${JSON.stringify(value)}: node ${byNode(value)}, examples ${byExamples(value)}`,
			);
		expect(disagreeing).toEqual([]);
	});

	it('Code nodes: the same lines before their first use; a timestamp they cannot read stops the node with its message', () => {
		const codeNodes = readers.filter(
			(r) => named(load(r.file), r.node).type === 'n8n-nodes-base.code',
		);
		expect(codeNodes.length).toBeGreaterThanOrEqual(7);
		const preludes = codeNodes.map(({ file, node }) => {
			const code = String(named(load(file), node).parameters.jsCode);
			return code.slice(0, code.indexOf('\n', code.indexOf('const toMs = ')));
		});
		expect(new Set(preludes).size).toBe(1);
		const toMs = new Function(`${preludes[0]}\nreturn toMs;`)() as Reader;
		for (const [name, value, expected] of TIMESTAMP_FORMATS) {
			if (expected === 'unreadable') expect(() => toMs(value)).toThrow(UNREADABLE);
			else expect({ name, ms: toMs(value) }).toEqual({ name, ms: expected });
		}
	});

	it('sync-by-polling-postgres binds the instant of a +hh updated_at, and for an unreadable one the message its bigint column refuses, never NaN', () => {
		const write = named(load('sync-by-polling-postgres.json'), 'Upsert Ticket If Not Older');
		const ticket = { id: 'tkt_1', customer: { id: 'cus_1' }, created_at: '2026-11-01T09:00:00Z' };
		expect(
			queryParameters(write, { ...ticket, updated_at: '2026-11-02T12:00:00.123+02' }).at(-1),
		).toBe(Date.parse('2026-11-02T10:00:00.123Z'));
		expect(queryParameters(write, { ...ticket, updated_at: 'yesterday' }).at(-1)).toMatch(
			UNREADABLE,
		);
	});
});

describe('sync-webhooks (Data Tables) against a service writing its timestamps with a +hh zone', () => {
	const AT = Date.parse('2026-11-02T10:00:00.000Z');
	let service: RawServer;
	let served: IDataObject;
	beforeAll(async () => {
		// The sandbox writes ISO in UTC only; this service answers every Get Ticket with `served`.
		service = await startRawServer((_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ data: served }));
		});
	});
	afterAll(async () => service.stop());

	it('stores the instant of each version, never goes back to an older one given in another form, and stops at an unreadable one', async () => {
		const tables = new DataTables();
		const context = {
			tables,
			credentials: {
				supportTicketApi: { baseUrl: service.baseUrl, apiKey: 'key', apiSecret: 'secret' },
			},
		};
		const deliver = (updatedAt: string, status: string) => {
			served = {
				id: 'tkt_1',
				subject: 'Printer',
				description: 'On fire',
				status,
				priority: 'high',
				customer: { id: 'cus_1' },
				created_at: '2026-11-02T11:00:00+02',
				updated_at: updatedAt,
			};
			return runExample(
				load('sync-webhooks.json'),
				'On Any Change',
				[{ id: `evt_${status}`, event: 'ticket.updated', data: { id: 'tkt_1' } }],
				context,
			);
		};
		const stored = () =>
			tables.rows('st_tickets').map((row) => ({
				status: row.status,
				updated_at: row.updated_at,
				updated_ms: row.updated_ms,
			}));

		await deliver('2026-11-02T12:00:00.123+02', 'open');
		expect(stored()).toEqual([
			{ status: 'open', updated_at: '2026-11-02T12:00:00.123+02', updated_ms: AT + 123 },
		]);
		await deliver('2026-11-02T12:30:00+0200', 'pending');
		expect(stored()).toEqual([
			{ status: 'pending', updated_at: '2026-11-02T12:30:00+0200', updated_ms: AT + 1_800_000 },
		]);
		// 12:45+03 is 09:45 UTC: older than 12:30+0200 (10:30 UTC), though its text sorts after it.
		await deliver('2026-11-02T12:45:00+03', 'open');
		expect(stored()).toEqual([
			{ status: 'pending', updated_at: '2026-11-02T12:30:00+0200', updated_ms: AT + 1_800_000 },
		]);
		await expect(deliver('yesterday', 'solved')).rejects.toThrow(
			'Cannot read timestamp "yesterday" (ISO 8601 or Unix time expected): record not written',
		);
		expect(stored()).toEqual([
			{ status: 'pending', updated_at: '2026-11-02T12:30:00+0200', updated_ms: AT + 1_800_000 },
		]);
	});
});
