// The examples read the service's timestamps with one reader, the same text in each (workflow files share no module):
// taken from every example file as it ships and held to the node's own table of formats.
import { readdirSync } from 'node:fs';

import type { INode } from 'n8n-workflow';

import { parseServiceTimestamp } from '../../nodes/shared/parameters/serviceTimestamp';
import { repoPath, type WorkflowJson } from '../harness';
import { TIMESTAMP_FORMATS, type JsonValue } from '../nodes/shared/parameters/timestampFormats';
import { load, named, queryParameters } from './postgresExamples';

const READER_START = '(v) => { const t = String(v).trim();';
const UNREADABLE =
	/^Cannot read timestamp .* \(ISO 8601 or Unix time expected\): record not written$/;

const examples = readdirSync(repoPath('examples'))
	.filter((file) => file.endsWith('.json'))
	.map((file) => ({ file, workflow: load(file) }));
const workingNodes = (workflow: WorkflowJson): INode[] =>
	workflow.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote');
/** Every text in a node's parameters. */
const texts = (value: unknown): string[] =>
	typeof value === 'string'
		? [value]
		: value && typeof value === 'object'
			? Object.values(value).flatMap(texts)
			: [];

/** Each reader in a text, from READER_START to its closing brace (the braces in its regular expressions pair up too). */
function readersIn(text: string): string[] {
	const found: string[] = [];
	for (
		let start = text.indexOf(READER_START);
		start >= 0;
		start = text.indexOf(READER_START, start + 1)
	) {
		for (let i = start, depth = 0; i < text.length; i++) {
			if (text[i] === '{') depth++;
			if (text[i] === '}' && --depth === 0) {
				found.push(text.slice(start, i + 1));
				break;
			}
		}
	}
	return found;
}

const readers = examples.flatMap(({ file, workflow }) =>
	workingNodes(workflow).flatMap((node) =>
		texts(node.parameters).flatMap((text) =>
			readersIn(text).map((reader) => ({ file, node, text: reader })),
		),
	),
);

type Reader = (value: unknown) => unknown;
const reader = new Function(`return ${readers[0]?.text ?? 'undefined'};`)() as Reader;
/** What the examples' reader makes of a value: epoch ms, or 'unreadable' when it gives its message instead of a number. */
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
		// Each list one string, its entries between the bars.
		const dates =
			'2026-11-02|2024-02-29|2025-02-29|2026-04-31|2026-00-10|2026-11-00|0000-01-01|9999-12-31|2026-1-02';
		const times =
			'|T10:00|t10:00:00| 23:59:59.5|T10:00:00.123456|T24:00|T24:00:01|T25:00|T10:60|T10:00:60|T1:00|T10:00:00.';
		const zones =
			'|Z|z|+02|-02|+0530|-05:30|+14:00|+2|+02:|+02:3| +02:00| GMT| UTC|+24:00|+99| PST';
		const others =
			'999999999|-999999999| 123456789.25 |1e11|+123456789|0x12345678|Tue, 03 Nov 2026 10:00:00 GMT|Tue Nov 03 2026 10:00:00 GMT+0200|2026-11-03T10:00:00 +0200|Nov 3 2026 UTC';
		const numbers = [0, -1, 1.5, 99_999_999, 1e8, 1e11 - 1, 1e11, 1e11 + 0.5, -1e11, 1e21, -0];
		const values: JsonValue[] = [
			...dates
				.split('|')
				.flatMap((date) =>
					times
						.split('|')
						.flatMap((time) => zones.split('|').map((zone) => `${date}${time}${zone}`)),
				),
			...numbers,
			...numbers.map(String),
			...others.split('|'),
		];
		const byNode = (value: unknown) => parseServiceTimestamp(value) ?? 'unreadable';
		const disagreeing = values
			.filter((value) => byExamples(value) !== byNode(value))
			.map(
				(value) => `${JSON.stringify(value)}: node ${byNode(value)}, examples ${byExamples(value)}`,
			);
		expect(disagreeing).toEqual([]);
	});

	it('Code nodes: the same lines before their first use; a timestamp they cannot read stops the node with its message', () => {
		const codeNodes = readers.filter((r) => r.node.type === 'n8n-nodes-base.code');
		expect(codeNodes.length).toBeGreaterThanOrEqual(7);
		const preludes = codeNodes.map(({ node }) => {
			const code = String(node.parameters.jsCode);
			return code.slice(0, code.indexOf('\n', code.indexOf('const toMs = ')));
		});
		expect(new Set(preludes).size).toBe(1);
		const toMs = new Function(`${preludes[0]}\nreturn toMs;`)() as Reader;
		for (const [name, value, expected] of TIMESTAMP_FORMATS) {
			if (expected === 'unreadable') expect(() => toMs(value)).toThrow(UNREADABLE);
			else expect({ name, ms: toMs(value) }).toEqual({ name, ms: expected });
		}
	});

	it('sync-by-polling-postgres binds, for an unreadable updated_at, the message its bigint column refuses, never NaN', () => {
		const write = named(load('sync-by-polling-postgres.json'), 'Upsert Ticket If Not Older');
		const ticket = { id: 'tkt_1', customer: { id: 'cus_1' }, updated_at: 'yesterday' };
		expect(queryParameters(write, ticket).at(-1)).toMatch(UNREADABLE);
	});
});
