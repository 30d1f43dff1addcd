import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, runWorkflow, singleNodeWorkflow } from '../../harness';
import { startSandbox, type Sandbox } from '../../../sandbox';
import { NODE } from '../supportTicketNode';

// A picked date without a zone is read in the workflow's time zone, as n8n's nodes do; one from an expression stays
// UTC, as the service's own timestamps are, so a created_at fed back means what the service meant.
const BOUNDARY = '2025-06-01T12:00:00'; // what the picker stores: no zone, no milliseconds

let sandbox: Sandbox;
let pinned = 0;
/** created_at of each ticket (ISO with Z), by id. */
const createdAt = new Map<string, string>();

beforeAll(async () => {
	sandbox = await startSandbox({ now: () => pinned, maxSkewSeconds: 10 ** 9 });
	// One ticket every 30 minutes from 2025-05-31T18:00Z to 2025-06-02T06:00Z: the boundary read in
	// Tokyo (03:00Z), UTC (12:00Z) and New York (16:00Z) each falls on a ticket.
	const start = Date.parse('2025-05-31T18:00:00Z');
	for (let n = 0; n <= 72; n++) {
		pinned = start + n * 30 * 60_000;
		const ticket = sandbox.store.createTicket({
			subject: `Zone ${n}`,
			description: 'd',
			customer: { email: `zone${n}@example.com` },
		});
		createdAt.set(ticket.id, ticket.created_at);
	}
	pinned = Date.now();
});
afterAll(async () => sandbox.stop());

async function ticketsCreatedAfter(
	createdAfter: string,
	timezone?: string,
): Promise<{ ids: string[]; oldest: string }> {
	const workflow = singleNodeWorkflow(NODE, {
		resource: 'ticket',
		operation: 'getAll',
		returnAll: true,
		options: { createdAfter },
	});
	const result = await runWorkflow(timezone ? { ...workflow, settings: { timezone } } : workflow, {
		supportTicketApi: credentialsFor(sandbox),
	});
	expect(result.error).toBeUndefined();
	const tickets = result.output('Node').map((item) => item.json as IDataObject);
	return {
		ids: tickets.map((t) => String(t.id)),
		oldest: String(tickets[tickets.length - 1].created_at),
	};
}

const atOrAfter = (iso: string) =>
	[...createdAt]
		.filter(([, at]) => Date.parse(at) >= Date.parse(iso))
		.map(([id]) => id)
		.reverse();

describe('Created After picked without a zone is read in the workflow time zone', () => {
	it.each([
		['America/New_York', '2025-06-01T16:00:00.000Z'],
		['Asia/Tokyo', '2025-06-01T03:00:00.000Z'],
		['Asia/Kolkata', '2025-06-01T06:30:00.000Z'],
		['UTC', '2025-06-01T12:00:00.000Z'],
		// A workflow without its own time zone uses the instance's default (America/New_York, n8n's default).
		[undefined, '2025-06-01T16:00:00.000Z'],
	])('workflow time zone %s: from %s on', async (timezone, instant) => {
		const { ids, oldest } = await ticketsCreatedAfter(BOUNDARY, timezone);
		expect(oldest).toBe(instant);
		expect(ids).toEqual(atOrAfter(instant));
	});
});

describe('Created After from an expression', () => {
	it.each([
		// Without a zone: UTC, like the service timestamps it usually is (a created_at fed back).
		[`={{ "${BOUNDARY}" }}`, 'America/New_York', '2025-06-01T12:00:00.000Z'],
		[`={{ "${BOUNDARY}.000" }}`, 'Asia/Tokyo', '2025-06-01T12:00:00.000Z'],
		// A Luxon DateTime carries its own zone.
		[
			`={{ DateTime.fromISO("${BOUNDARY}", { zone: "Asia/Tokyo" }) }}`,
			'America/New_York',
			'2025-06-01T03:00:00.000Z',
		],
	])('%s in a workflow in %s: from %s on', async (createdAfter, timezone, instant) => {
		expect((await ticketsCreatedAfter(createdAfter, timezone)).oldest).toBe(instant);
	});
});
