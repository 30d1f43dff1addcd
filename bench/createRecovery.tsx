/**
 * Creates under faults that lose answers: 1,000 ticket creates through the engine (in-process
 * harness, real HTTP) against the sandbox, where 20 % of requests are refused before processing
 * (10 % 429 with Retry-After, 10 % 503 without), 5 % of writes are processed and then answered 503
 * without Retry-After, and 5 % processed and then dropped without an answer. What must hold:
 * exactly one ticket per item, no failed item, no duplicate. Reported: the extra calls each create
 * cost (repeats and lookups), and the time.
 *
 *   node build/bench/createRecovery.js [--items 1000] [--out file.md]
 */
import { writeFileSync } from 'node:fs';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { credentialsFor, isolateUserFolder, itemsWorkflow, runWorkflow } from '../test/harness';
import { startSandbox, type FaultOptions } from '../sandbox';
import { option, table } from './report';

const NODE_TYPE = 'n8n-nodes-support-ticket.supportTicket';
export const CREATE_RECOVERY_FAULTS: FaultOptions = {
	rate429: 0.1,
	rate503Bare: 0.1,
	rateProcessed503: 0.05,
	rateProcessedDrop: 0.05,
	latencyMs: [2, 6],
	seed: 11,
};

export interface CreateRecoveryFigures {
	concurrentRequests: number;
	/** A helpdesk rule edited each new ticket's priority at once. */
	rule: boolean;
	items: number;
	/** Tickets of this run in the service, and how many subjects were made more than once / not at all. */
	records: number;
	duplicates: number;
	missing: number;
	failedItems: number;
	runError?: string;
	posts: number;
	lookups: number;
	/** Answers of each fault kind the sandbox gave. */
	faults: Record<string, number>;
	/** From the node's log: ambiguous failures whose ticket was found, and those sent again. */
	found: number;
	sentAgain: number;
	extraCallsPerCreate: number;
	wallSeconds: number;
}

async function runOnce(
	items: number,
	concurrentRequests: number,
	rule: boolean,
): Promise<CreateRecoveryFigures> {
	const sandbox = await startSandbox({ seed: 20 });
	if (rule) sandbox.store.ticketCreatedRule = { priority: 'urgent' };
	// The node says in n8n's log which way each ambiguous failure went: count instead of printing.
	const logger = Container.get(Logger);
	const warn = logger.warn;
	const said = { found: 0, sentAgain: 0 };
	logger.warn = (message: string) => {
		if (/but had been processed: found/.test(message)) said.found++;
		if (/: sending it again/.test(message)) said.sentAgain++;
	};
	try {
		const tag = `recovery-${concurrentRequests}-${Date.now().toString(36)}`;
		const input = Array.from({ length: items }, (_, i) => ({
			subject: `${tag} #${i}`,
			email: `bench-${i % 50}@example.com`,
		}));
		sandbox.setFaults(CREATE_RECOVERY_FAULTS);
		const started = Date.now();
		const result = await runWorkflow(
			itemsWorkflow(
				input,
				NODE_TYPE,
				{
					resource: 'ticket',
					operation: 'create',
					subject: '={{ $json.subject }}',
					description: 'bench',
					customerEmail: '={{ $json.email }}',
					options: { concurrentRequests },
				},
				{ continueOnFail: true },
			),
			{ supportTicketApi: credentialsFor(sandbox) },
		);
		const wallSeconds = (Date.now() - started) / 1000;
		sandbox.setFaults({});
		const counts = new Map<string, number>();
		for (const ticket of sandbox.store.listTickets())
			if (ticket.subject.startsWith(tag))
				counts.set(ticket.subject, (counts.get(ticket.subject) ?? 0) + 1);
		const output = result.error ? [] : result.output('Node');
		const faults: Record<string, number> = {};
		for (const entry of sandbox.log)
			if (entry.fault !== undefined)
				faults[String(entry.fault)] = (faults[String(entry.fault)] ?? 0) + 1;
		const calls = sandbox.log.length;
		return {
			concurrentRequests,
			rule,
			items,
			records: [...counts.values()].reduce((sum, n) => sum + n, 0),
			duplicates: [...counts.values()].filter((n) => n > 1).reduce((sum, n) => sum + n - 1, 0),
			missing: input.filter((item) => !counts.has(item.subject)).length,
			failedItems: result.error
				? items
				: output.filter((item) => item.json.error !== undefined).length,
			...(result.error ? { runError: result.error.message } : {}),
			posts: sandbox.countCalls({ method: 'POST' }),
			lookups: sandbox.countCalls({ method: 'GET' }),
			faults,
			...said,
			extraCallsPerCreate: (calls - items) / items,
			wallSeconds,
		};
	} finally {
		logger.warn = warn;
		await sandbox.stop();
	}
}

/** Figures that break the promise: anything but one ticket per item and no failed item. */
export function createRecoveryViolations(f: CreateRecoveryFigures): string[] {
	const problems: string[] = [];
	if (f.runError) problems.push(`the run failed: ${f.runError}`);
	if (f.records !== f.items) problems.push(`${f.records} tickets for ${f.items} items`);
	if (f.duplicates > 0) problems.push(`${f.duplicates} duplicates`);
	if (f.missing > 0) problems.push(`${f.missing} items without a ticket`);
	if (f.failedItems > 0) problems.push(`${f.failedItems} failed items`);
	return problems;
}

/** Runs the scenario at Concurrent Requests 16 and 1; returns the figures and a markdown section. */
export async function benchCreateRecovery(
	items = 1000,
	log: (line: string) => void = () => undefined,
): Promise<{ figures: CreateRecoveryFigures[]; markdown: string }> {
	const figures: CreateRecoveryFigures[] = [];
	for (const [concurrentRequests, rule] of [
		[16, false],
		[1, false],
		[16, true],
	] as const) {
		log(
			`create recovery: ${items} creates at Concurrent Requests ${concurrentRequests}${rule ? ', a rule editing each new ticket' : ''}…`,
		);
		const f = await runOnce(items, concurrentRequests, rule);
		log(`  ${JSON.stringify(f)}`);
		figures.push(f);
	}
	const fault = (f: CreateRecoveryFigures, kind: string) => String(f.faults[kind] ?? 0);
	const markdown = [
		'## Creates when answers are lost',
		'',
		`${items.toLocaleString('en')} ticket creates (Continue On Fail on) against the sandbox with \`${JSON.stringify(CREATE_RECOVERY_FAULTS)}\`: 20 % of requests refused before processing (429 with Retry-After: 1, 503 without Retry-After), 5 % of writes processed then answered 503 without Retry-After, 5 % processed then dropped. After an answer that leaves open whether the ticket was made, the node reads the newest tickets and returns the one it made, or sends the create again. The last row adds a helpdesk rule that sets each new ticket's priority at once.`,
		'',
		table(
			[
				'Concurrent Requests',
				'helpdesk rule',
				'tickets',
				'duplicates',
				'missing',
				'failed items',
				'POSTs',
				'lookups (GET)',
				'429',
				'503 refused',
				'503 after processing',
				'dropped after processing',
				'found after a lost answer',
				'sent again after a lookup',
				'extra calls per create',
				'time (s)',
			],
			figures.map((f) => [
				String(f.concurrentRequests),
				f.rule ? 'priority set at once' : '-',
				f.records.toLocaleString('en'),
				String(f.duplicates),
				String(f.missing),
				String(f.failedItems),
				f.posts.toLocaleString('en'),
				f.lookups.toLocaleString('en'),
				fault(f, '429'),
				fault(f, '503-bare'),
				fault(f, 'processed-503'),
				fault(f, 'processed-drop'),
				String(f.found),
				String(f.sentAgain),
				f.extraCallsPerCreate.toFixed(2),
				f.wallSeconds.toFixed(1),
			]),
		),
		'',
		...figures.flatMap((f) =>
			createRecoveryViolations(f).map(
				(problem) =>
					`- **Violation** at Concurrent Requests ${f.concurrentRequests}${f.rule ? ' with the rule' : ''}: ${problem}`,
			),
		),
	].join('\n');
	return { figures, markdown };
}

async function main(): Promise<void> {
	isolateUserFolder();
	const items = Number(option('items', '1000'));
	const out = option('out', '');
	const { figures, markdown } = await benchCreateRecovery(items, (line) => console.log(line));
	console.log(`\n${markdown}`);
	if (out) writeFileSync(out, `${markdown}\n`);
	if (figures.some((f) => createRecoveryViolations(f).length > 0)) process.exitCode = 1;
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error);
		process.exitCode = 1;
	});
}
