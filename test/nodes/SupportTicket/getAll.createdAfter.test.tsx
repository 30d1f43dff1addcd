import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, useSandbox } from '../../harness';
import { startSandbox, type TimestampFormat } from '../../../sandbox';
import { runNode } from '../supportTicketNode';
import type { ZoneRun } from './createdAfterInZone';

// Reading stops at the first older ticket; the boundary is included, so a created_at fed back loses no ticket.
const TICKETS = 1050;
const { sandbox, credentials } = useSandbox({ seed: TICKETS });

const getMany = (parameters: IDataObject) =>
	runNode({ resource: 'ticket', operation: 'getAll', ...parameters }, credentials);

const newestFirst = () => sandbox.store.listTickets();
const listCalls = () => sandbox.countCalls({ method: 'GET', pathname: '/api/v1/external/tickets' });
const atOrAfter = (iso: string) =>
	newestFirst().filter((t) => Date.parse(t.created_at) >= Date.parse(iso));

describe('Return All with Created After', () => {
	// The date is the created_at of the ticket at this position, newest first.
	it.each([0, 1, 30, 99, 100, 101, 150, 200, 250, 1049])(
		'date of ticket #%i: exactly the tickets at or after it, one more page only when they fill theirs',
		async (position) => {
			const after = newestFirst()[position].created_at;
			const expected = atOrAfter(after).map((t) => t.id);
			const result = await getMany({ returnAll: true, options: { createdAfter: after } });
			expect(result.error).toBeUndefined();
			expect(result.output('Node').map((i) => i.json.id)).toEqual(expected);
			expect(listCalls()).toBe(Math.floor(expected.length / 100) + 1);
		},
	);

	// The newest (#0) and the oldest (#1049, everything in ⌈n/100⌉ calls) are in the table above.
	it('a date after every ticket: none, in one call', async () => {
		const newest = newestFirst()[0].created_at;
		const createdAfter = new Date(Date.parse(newest) + 1).toISOString();
		const none = await getMany({ returnAll: true, options: { createdAfter } });
		expect(none.error).toBeUndefined();
		expect(none.output('Node')).toHaveLength(0);
		expect(listCalls()).toBe(1);
	});

	it('with a Limit: stops at whichever comes first', async () => {
		const after = newestFirst()[250].created_at;
		const result = await getMany({ limit: 10, options: { createdAfter: after } });
		expect(result.output('Node').map((i) => i.json.id)).toEqual(
			atOrAfter(after)
				.slice(0, 10)
				.map((t) => t.id),
		);
		expect(listCalls()).toBe(1);
	});

	it('with filters: the newer tickets that match', async () => {
		const after = newestFirst()[500].created_at;
		const result = await getMany({
			returnAll: true,
			filters: { status: 'open' },
			options: { createdAfter: after },
		});
		expect(result.output('Node').map((i) => i.json.id)).toEqual(
			atOrAfter(after)
				.filter((t) => t.status === 'open')
				.map((t) => t.id),
		);
	});

	it('in One Page per Run: the page ends at the first older ticket and says there is no more', async () => {
		const after = newestFirst()[130].created_at;
		const first = (
			await getMany({ pagination: 'onePage', pageSize: 100, options: { createdAfter: after } })
		).output('Node')[0].json;
		expect(first).toMatchObject({ count: 100, has_more: true });
		const second = (
			await getMany({
				pagination: 'onePage',
				pageSize: 100,
				cursor: first.next_cursor,
				options: { createdAfter: after },
			})
		).output('Node')[0].json;
		const expected = atOrAfter(after).map((t) => t.id);
		expect(
			[...(first.data as IDataObject[]), ...(second.data as IDataObject[])].map((t) => t.id),
		).toEqual(expected);
		expect(second).toMatchObject({
			count: expected.length - 100,
			has_more: false,
			next_cursor: null,
		});
	});

	it('with Pages per Run: the run stops at the first older ticket, not after its pages', async () => {
		const after = newestFirst()[130].created_at;
		const run = (
			await getMany({
				pagination: 'onePage',
				pageSize: 100,
				pagesPerRun: 5,
				options: { createdAfter: after },
			})
		).output('Node')[0].json;
		expect((run.data as IDataObject[]).map((t) => t.id)).toEqual(atOrAfter(after).map((t) => t.id));
		expect(run).toMatchObject({ has_more: false, next_cursor: null });
		expect(listCalls()).toBe(2);
	});

	// ISO without a zone and a Luxon DateTime from an expression: getAll.createdAfterTimezone.test.tsx; Unix time:
	// the numeric created_at tests below.
	it('the date as an expression giving a JavaScript Date', async () => {
		const after = newestFirst()[40].created_at;
		const result = await getMany({
			returnAll: true,
			options: { createdAfter: `={{ new Date('${after}') }}` },
		});
		expect(result.error).toBeUndefined();
		expect(result.output('Node').map((i) => i.json.id)).toEqual(atOrAfter(after).map((t) => t.id));
	});

	it('an empty date (e.g. no watermark yet) means no limit', async () => {
		const result = await getMany({
			returnAll: true,
			options: { createdAfter: '={{ $json.nothing ?? "" }}' },
		});
		expect(result.output('Node')).toHaveLength(TICKETS);
	});
});

describe('refused before any request', () => {
	it.each([
		['oldest first', { sortOrder: 'asc' }],
		['by updated_at', { sortBy: 'updated_at' }],
		['by updated_at, newest first', { sortBy: 'updated_at', sortOrder: 'desc' }],
	])('Created After with another order: %s', async (_name, sort) => {
		const result = await getMany({
			returnAll: true,
			options: { createdAfter: '2025-01-01T00:00:00Z', ...sort },
		});
		expect(result.error?.message).toBe('Created After needs the newest-first order');
		expect(result.error?.description).toBe(
			'Reading stops at the first older ticket: remove Sort By and Sort Order (or set Created At, Descending), or remove Created After.',
		);
		expect(sandbox.log).toHaveLength(0);
	});

	it('explicit Created At, Descending is the default order and is accepted', async () => {
		const after = newestFirst()[5].created_at;
		const result = await getMany({
			returnAll: true,
			options: { createdAfter: after, sortBy: 'created_at', sortOrder: 'desc' },
		});
		expect(result.output('Node').map((i) => i.json.id)).toEqual(atOrAfter(after).map((t) => t.id));
	});

	it('a text that is not a date', async () => {
		const result = await getMany({
			returnAll: true,
			options: { createdAfter: '={{ "last tuesday" }}' },
		});
		expect(result.error?.message).toBe('Created After "last tuesday" is not a date and time');
		expect(result.error?.description).toContain('ISO 8601');
		expect(sandbox.log).toHaveLength(0);
	});
});

/** A sandbox whose clock the test can pin, so tickets can share one created_at or sit at chosen times. */
async function pinnedSandbox(seed: number, timestampFormat?: TimestampFormat) {
	let pinned: number | undefined;
	const pinnable = await startSandbox({
		seed,
		timestampFormat,
		now: () => pinned ?? Date.now(),
		maxSkewSeconds: 10 ** 9,
	});
	return {
		sandbox: pinnable,
		pin: (ms?: number) => (pinned = ms),
		newTicket: (n: number) =>
			pinnable.store.createTicket({
				subject: `Pinned ${n}`,
				description: 'd',
				customer: { email: `pinned${n}@example.com` },
			}),
		run: async (createdAfter?: unknown) => {
			const options = createdAfter === undefined ? {} : { createdAfter };
			const result = await runNode(
				{ resource: 'ticket', operation: 'getAll', returnAll: true, options },
				credentialsFor(pinnable),
			);
			expect(result.error).toBeUndefined();
			return result.output('Node').map((i) => i.json);
		},
	};
}

describe('feeding back the newest created_at seen, as an incremental import does', () => {
	it('a ticket created later within the same timestamp as that watermark is imported by the next run; after upserts by id, every ticket is in the copy exactly once', async () => {
		const env = await pinnedSandbox(120);
		const copy = new Map<string, IDataObject>(); // the destination: upsert by id
		const importRun = async (createdAfter?: string) => {
			const items = await env.run(createdAfter);
			for (const ticket of items) copy.set(String(ticket.id), ticket);
			return items;
		};
		try {
			const first = await importRun();
			expect(first).toHaveLength(120);
			const watermark = String(first[0].created_at); // newest first
			// After the run: one more ticket in the very millisecond of the watermark, one later.
			env.pin(Date.parse(watermark));
			const sameInstant = env.newTicket(1);
			env.pin(Date.parse(watermark) + 1000);
			const later = env.newTicket(2);
			env.pin(undefined);
			expect(sameInstant.created_at).toBe(watermark);

			const second = await importRun(watermark);
			expect(second.map((t) => t.id)).toEqual(expect.arrayContaining([sameInstant.id, later.id]));
			expect(second.every((t) => Date.parse(String(t.created_at)) >= Date.parse(watermark))).toBe(
				true,
			);
			expect([...copy.keys()].sort()).toEqual(
				env.sandbox.store
					.listTickets()
					.map((t) => t.id)
					.sort(),
			);

			// Nothing new: only the boundary ticket comes again, and the copy does not change.
			const third = await importRun(String(second[0].created_at));
			expect(third.map((t) => t.id)).toEqual([later.id]);
			expect(copy.size).toBe(122);
		} finally {
			await env.sandbox.stop();
		}
	});
});

describe.each([
	['Europe/Berlin', -120],
	['America/New_York', 240],
])('a service that sends created_at without a zone, n8n host in %s', (zone, offsetInJune) => {
	it.each([
		// Fed back through an expression, as a workflow does (picked in the field it would be in the workflow's time zone).
		['as the service sent it (no zone)', '={{ "2025-06-01T12:00:00.000" }}'],
		['with Z', '2025-06-01T12:00:00.000Z'],
	])(
		'Created After %s: the tickets at or after it, none lost and no older one (both read as UTC)',
		async (_name, createdAfter) => {
			// A child process, since TZ cannot change inside a jest test (see createdAfterInZone.tsx).
			const { stdout } = await promisify(execFile)(
				process.execPath,
				[path.join(__dirname, 'createdAfterInZone.tsx'), createdAfter],
				{
					env: { ...process.env, TZ: zone },
				},
			);
			const run = JSON.parse(stdout) as ZoneRun;
			expect(run.offsetInJune).toBe(offsetInJune); // the zone was in force, else this proves nothing
			expect(run.sentCreatedAt).toContain('2025-06-01T12:00:00.000'); // the service sent no zone
			expect(run.ids).toEqual(run.expected);
			expect(run.ids).toHaveLength(4);
		},
	);
});

describe.each([
	['epoch-seconds', 1000],
	['epoch-milliseconds', 1],
] as const)('a service that sends created_at as a number (%s)', (format, unitMs) => {
	it('Created After compares it as Unix time (below 1e11: seconds, else milliseconds), given as that number or as ISO', async () => {
		const env = await pinnedSandbox(0, format);
		try {
			const boundary = Date.parse('2025-06-01T12:00:00Z');
			const at = (offsetMs: number, n: number) => {
				env.pin(boundary + offsetMs);
				return env.newTicket(n).id;
			};
			at(-60_000, 1);
			const expected = [at(0, 2), at(60_000, 3)].reverse();
			env.pin(undefined);
			const asNumber = await env.run(`={{ ${boundary / unitMs} }}`);
			expect(asNumber.map((t) => t.created_at)).toContain(boundary / unitMs);
			expect(asNumber.map((t) => t.id)).toEqual(expected);
			expect((await env.run('2025-06-01T12:00:00Z')).map((t) => t.id)).toEqual(expected);
		} finally {
			await env.sandbox.stop();
		}
	});
});
