// incremental-import.json in real n8n: run 1 copies every ticket, run 2 just the new ones (one in the watermark's
// millisecond), run 3 nothing; after each run every ticket is in st_tickets once.
import type { Sandbox } from '../../../sandbox';
import type { WorkflowFile } from '../fixtures';
import type { PinnableClock } from '../pinnableClock';
import { compareTickets, describeDifference, isEqual } from './compareCopy';
import { runToEnd, type SyncTarget } from './syncProof';
import { LIST_PATH, readTable, STATE_TABLE, TICKET_TABLE } from './syncTables';

export const INCREMENTAL_EXAMPLE = 'examples/incremental-import.json';
const TRIGGER = 'When clicking ‘Execute workflow’';
const WATERMARK_KEY = 'incremental_created_after';

/** Runs the import once and checks every ticket is in st_tickets once and the watermark is the newest created_at; `pages`: list calls. */
async function runAndCheck(
	target: SyncTarget,
	sandbox: Sandbox,
	workflow: WorkflowFile,
	label: string,
): Promise<{ seconds: number; pages: number; rows: number; watermark: string }> {
	const { rest } = target;
	const pagesBefore = sandbox.countCalls({ pathname: LIST_PATH });
	const seconds = await runToEnd(rest, workflow, TRIGGER);
	const pages = sandbox.countCalls({ pathname: LIST_PATH }) - pagesBefore;
	const rows = await readTable(rest, TICKET_TABLE);
	const difference = compareTickets(sandbox.store.listTickets(), rows, sandbox.timestampFormat);
	if (!isEqual(difference))
		throw new Error(`after ${label}: ${describeDifference('tickets', difference)}`);
	const watermarks = (await readTable(rest, STATE_TABLE))
		.filter((row) => row.key === WATERMARK_KEY)
		.map((row) => String(row.value));
	const newest = sandbox.store.listTickets()[0]?.created_at;
	if (watermarks.length !== 1 || watermarks[0] !== newest) {
		throw new Error(
			`after ${label}: st_state has ${JSON.stringify(watermarks)} for ${WATERMARK_KEY}, expected one row with the newest created_at ${newest}`,
		);
	}
	return { seconds, pages, rows: rows.length, watermark: watermarks[0] };
}

export async function proveIncremental(
	target: SyncTarget,
	sandbox: Sandbox,
	clock: PinnableClock,
	workflow: WorkflowFile,
	log: (line: string) => void,
): Promise<void> {
	const first = await runAndCheck(target, sandbox, workflow, 'the first run');
	log(
		`incremental run 1: ${first.rows} tickets copied in ${first.seconds.toFixed(1)} s (${first.pages} page(s)), watermark ${first.watermark}`,
	);
	// A ticket the service records later but within the watermark's millisecond, as a busy service does.
	clock.pin(Date.parse(first.watermark));
	const boundary = sandbox.store.createTicket({
		subject: 'Same millisecond as the watermark',
		description: 'e2e',
		customer: { email: 'boundary@example.com' },
	});
	clock.release();
	const later = [1, 2].map((n) =>
		sandbox.store.createTicket({
			subject: `Created after run 1, ${n}`,
			description: 'e2e',
			customer: { email: 'later@example.com' },
		}),
	);
	if (boundary.created_at !== first.watermark)
		throw new Error(`the boundary ticket got ${boundary.created_at}, not ${first.watermark}`);
	const second = await runAndCheck(target, sandbox, workflow, 'the run after 3 new tickets');
	if (second.rows !== first.rows + 3)
		throw new Error(`run 2 left ${second.rows} rows, expected ${first.rows + 3}`);
	if (
		Date.parse(second.watermark) <= Date.parse(first.watermark) ||
		second.watermark !== later[1].created_at
	) {
		throw new Error(
			`run 2 saved the watermark ${second.watermark}; expected ${later[1].created_at}, after ${first.watermark}`,
		);
	}
	log(
		`incremental run 2: ${second.rows - first.rows} new tickets (one at the watermark ${first.watermark}) in ${second.seconds.toFixed(1)} s (${second.pages} page(s)), watermark ${second.watermark}`,
	);
	const third = await runAndCheck(target, sandbox, workflow, 'a run with nothing new');
	if (third.rows !== second.rows || third.watermark !== second.watermark)
		throw new Error(`run 3 changed the table: ${JSON.stringify(third)}`);
	log(
		`incremental run 3 (nothing new): ${third.rows} rows, watermark unchanged, ${third.pages} page(s)`,
	);
}
