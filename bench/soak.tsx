/**
 * `npm run bench -- --soak`: the node under faults, through n8n's engine in-process, against the sandbox in the
 * same process. Bounded in time; prints counts; exits 1 on any violation.
 * Faults: 15% 429 + 15% 503, latency 0–20 ms on every request, `Retry-After: 0`, so every wait is the
 * node's own backoff floor (0.25–0.5 s, doubling): a few minutes per fault seed, mostly the 500
 * creations one at a time (waiting for a longer Retry-After is covered by the retry-policy tests). The fault draws come from
 * a seeded PRNG and only the node's requests draw, so a run replays exactly; the fault cases run once
 * per fault seed, each on a freshly seeded sandbox.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_CONCURRENT_REQUESTS } from '../nodes/SupportTicket/actions/common/descriptions';
import { DEFAULT_RETRY_POLICY } from '../nodes/shared/transport/retryPolicy';
import {
	credentialsFor,
	isolateUserFolder,
	itemsWorkflow,
	runWorkflow,
	singleNodeWorkflow,
	type WorkflowJson,
	type WorkflowRun,
} from '../test/harness';
import { type FaultOptions, type Sandbox, startSandbox } from '../sandbox';

/** What one case found: counts to print, and the rules it broke (false: kept). */
type Found = { lines: string[]; violations: Array<string | false> };

const FAULTS: FaultOptions = { rate429: 0.15, rate503: 0.15, latencyMs: [0, 20], retryAfter: 0 };
const FAULT_SEEDS = [1, 2];
const TICKETS = 10_000;
const CREATIONS = 500;
const STOP_AFTER_PAGES = 30;
const TIME_LIMIT_MS = 15 * 60_000;
const LIST = '/api/v1/external/tickets';
const NODE_TYPE = 'n8n-nodes-support-ticket.supportTicket';
const RETURN_ALL = { resource: 'ticket', operation: 'getAll', returnAll: true };
const seconds = (since: number): string => ((performance.now() - since) / 1000).toFixed(1);
const tally = (keys: string[]): Map<string, number> =>
	keys.reduce(
		(counts, key) => counts.set(key, (counts.get(key) ?? 0) + 1),
		new Map<string, number>(),
	);
const run = (sandbox: Sandbox, workflow: WorkflowJson): Promise<WorkflowRun> =>
	runWorkflow(workflow, { supportTicketApi: credentialsFor(sandbox) });
/** A fresh sandbox where the old one was: same port, seed and key. */
const restart = (old: Sandbox): Promise<Sandbox> =>
	startSandbox({
		port: old.port,
		seed: old.seeded.tickets,
		apiKey: old.apiKey,
		apiSecret: old.apiSecret,
	});

/** Runs `workflow` under `faults` on a clear log; faults off afterwards whatever happened. */
async function underFaults(sandbox: Sandbox, faults: FaultOptions, workflow: WorkflowJson) {
	sandbox.clearLog();
	sandbox.setFaults(faults);
	const started = performance.now();
	const result = await run(sandbox, workflow).finally(() => sandbox.setFaults({}));
	return { result, took: seconds(started), output: result.error ? [] : result.output('Node') };
}

/**
 * Return All under faults while tickets are being created, straight into the store (no fault draws),
 * from the first answered page on: every ticket that existed at the start comes back exactly once;
 * newest first, no new ticket may come back (each sorts before the cursor).
 */
async function returnAll(
	sandbox: Sandbox,
	faults: FaultOptions,
	sortOrder: 'desc' | 'asc',
): Promise<Found> {
	const initial = new Set(sandbox.store.listTickets().map((ticket) => ticket.id));
	const meanwhile = new Set<string>();
	const creator = setInterval(() => {
		if (sandbox.countCalls({ pathname: LIST, status: 200 }) === 0) return;
		const n = meanwhile.size + 1;
		meanwhile.add(
			sandbox.store.createTicket({
				subject: `created during the soak traversal #${n}`,
				description: 'A new ticket while Return All is paging.',
				customer: { email: `soak-${n % 50}@example.com` },
			}).id,
		);
	}, 5);
	const workflow = singleNodeWorkflow(NODE_TYPE, {
		...RETURN_ALL,
		options: { sortBy: 'created_at', sortOrder },
	});
	const { result, took, output } = await underFaults(sandbox, faults, workflow).finally(() =>
		clearInterval(creator),
	);
	const log = sandbox.log.filter((entry) => entry.pathname === LIST);
	const [injected, pages] = [
		log.filter((entry) => entry.fault !== undefined).length,
		log.filter((entry) => entry.status === 200).length,
	];
	if (result.error) {
		return {
			lines: [
				`the run failed after ${took} s, ${pages} pages, ${injected} injected faults: ${result.error.message}`,
			],
			violations: [`Return All (${sortOrder}) under faults failed: ${result.error.message}`],
		};
	}
	const counts = tally(output.map((item) => (item.json as IDataObject).id as string));
	const ids = [...counts.keys()];
	const initialOnce = [...initial].filter((id) => counts.get(id) === 1).length;
	const missing = [...initial].filter((id) => !counts.has(id)).length;
	const duplicated = [...counts.values()].filter((n) => n > 1).length;
	const newReturned = ids.filter((id) => meanwhile.has(id)).length;
	const unknown = ids.filter((id) => !initial.has(id) && !meanwhile.has(id)).length;
	return {
		lines: [
			`${output.length} items in ${took} s: ${initialOnce} of ${initial.size} initial tickets exactly once, ${missing} missing, ${duplicated} duplicated`,
			`${meanwhile.size} tickets created during the traversal, ${newReturned} of them returned${sortOrder === 'desc' ? ' (newest first: none expected)' : ' (oldest first: those created before the traversal reached the end)'}`,
			`${log.length} requests: ${pages} pages answered, ${injected} injected 429/503 retried`,
		],
		violations: [
			initialOnce !== initial.size &&
				`${initial.size - initialOnce} of the ${initial.size} tickets that existed at the start did not come back exactly once (${missing} missing)`,
			duplicated > 0 && `${duplicated} tickets came back more than once`,
			unknown > 0 && `${unknown} returned ids are neither initial nor created meanwhile`,
			sortOrder === 'desc' &&
				newReturned > 0 &&
				`${newReturned} tickets created during a newest-first traversal came back (they sort before the cursor)`,
		],
	};
}

/**
 * A `count`-item workflow creates tickets under faults. A faulted POST was not processed, so the node
 * may and must retry it: afterwards exactly `count` new tickets exist, each once, and the node
 * returned `count` items in input order.
 */
async function create(
	sandbox: Sandbox,
	faults: FaultOptions,
	count: number,
	concurrentRequests: number,
): Promise<Found> {
	const tag = `soak-${Date.now().toString(36)}`;
	const items = Array.from({ length: count }, (_, i) => ({
		subject: `${tag} #${i + 1}`,
		description: `Soak ticket ${i + 1} of ${count}`,
		email: `soak-creator-${i % 20}@example.com`,
	}));
	const before = sandbox.store.ticketCount;
	const parameters = {
		resource: 'ticket',
		operation: 'create',
		subject: '={{ $json.subject }}',
		description: '={{ $json.description }}',
		customerEmail: '={{ $json.email }}',
		options: { concurrentRequests },
	};
	const { result, took, output } = await underFaults(
		sandbox,
		faults,
		itemsWorkflow(items, NODE_TYPE, parameters),
	);
	const subjects = tally(
		sandbox.store
			.listTickets()
			.flatMap(({ subject }) => (subject.startsWith(`${tag} #`) ? [subject] : [])),
	);
	const created = [...subjects.values()].reduce((sum, n) => sum + n, 0);
	const duplicated = [...subjects.values()].filter((n) => n > 1).length;
	const posts = sandbox.log.filter((entry) => entry.method === 'POST');
	return {
		lines: [
			`${result.error ? `failed after ${took} s: ${result.error.message}` : `succeeded in ${took} s`}; node output ${output.length} items`,
			`tickets afterwards: ${sandbox.store.ticketCount - before} new (${created} with this run's subjects, ${subjects.size} distinct, ${duplicated} duplicated)`,
			`${posts.length} POSTs: ${posts.filter((e) => e.status === 201).length} answered 201, ${posts.filter((e) => e.fault !== undefined).length} injected 429/503 retried`,
		],
		violations: [
			!!result.error && `the creation run failed: ${result.error.message}`,
			created !== count && `${created} tickets exist afterwards, expected exactly ${count}`,
			duplicated > 0 && `${duplicated} tickets were created more than once`,
			!result.error &&
				output.length !== count &&
				`the node returned ${output.length} items, expected ${count}`,
			!result.error &&
				output.some((item, i) => item.json.subject !== items[i].subject) &&
				'the output is not in input order',
		],
	};
}

/** The package's own words ("Could not reach the service …"), or those n8n's NodeApiError puts in their place for a connection error code. */
const CONNECTION_LOST =
	/Could not reach the service|refused the connection|closed unexpectedly|perhaps it is offline/i;
/** The retry budget plus what the attempts themselves may take on a loaded machine. */
const ERROR_DEADLINE_MS = DEFAULT_RETRY_POLICY.budgetMs + 10_000;

/** Return All while the sandbox is stopped after `pages` answered pages; `restartAfterMs` brings a fresh one back on the same port. */
async function interrupted(holder: { sandbox: Sandbox }, pages: number, restartAfterMs?: number) {
	const { sandbox } = holder;
	sandbox.clearLog();
	let stoppedAt: number | undefined;
	let stopping: Promise<void> | undefined;
	const watcher = setInterval(() => {
		if (stopping || sandbox.countCalls({ pathname: LIST, status: 200 }) < pages) return;
		stoppedAt = performance.now();
		stopping = sandbox.stop().then(async () => {
			if (restartAfterMs === undefined) return;
			await new Promise((resolve) => setTimeout(resolve, restartAfterMs));
			holder.sandbox = await restart(sandbox);
		});
	}, 1);
	let deadline: NodeJS.Timeout | undefined;
	const hang = new Promise<never>(
		(_, reject) =>
			(deadline = setTimeout(
				() =>
					reject(
						new Error(`no result ${ERROR_DEADLINE_MS / 1000} s after the start: the node hangs`),
					),
				ERROR_DEADLINE_MS + 30_000,
			)),
	);
	const result = await Promise.race([
		run(sandbox, singleNodeWorkflow(NODE_TYPE, RETURN_ALL)),
		hang,
	]).finally(() => clearTimeout(deadline));
	const errorAfterMs = stoppedAt === undefined ? Number.NaN : performance.now() - stoppedAt;
	clearInterval(watcher);
	await stopping;
	return {
		result,
		errorAfterMs,
		restarted: restartAfterMs !== undefined && holder.sandbox !== sandbox,
	};
}

/** What the user reads on the failed node: message, the messages n8n kept underneath, description. */
function describe(result: WorkflowRun): string {
	const error = result.error as (WorkflowRun['error'] & { messages?: string[] }) | undefined;
	if (!error) return 'no error';
	const underneath = error.messages?.filter((m) => m && m !== error.message) ?? [];
	return [
		`"${error.message}"`,
		underneath.length ? `(underneath: ${underneath.map((m) => `"${m}"`).join(', ')})` : '',
		error.description ? `— ${error.description}` : '',
	]
		.filter(Boolean)
		.join(' ');
}

/** The run must fail with a clear error within the retry budget, never hang, never hand over the pages read so far. */
function judge(
	{ result, errorAfterMs }: { result: WorkflowRun; errorAfterMs: number },
	expected: RegExp,
	what: string,
): Array<string | false> {
	if (!result.error)
		return [
			`${what}: the run succeeded with ${result.output('Node').length} items instead of failing`,
		];
	const handedOn = result.run?.data.resultData.runData.Node?.[0]?.data?.main?.[0]?.length ?? 0;
	return [
		!expected.test(result.error.message) && `${what}: unclear error "${result.error.message}"`,
		Number.isNaN(errorAfterMs) && `${what}: the run ended before the server was stopped`,
		errorAfterMs > ERROR_DEADLINE_MS &&
			`${what}: the error came ${(errorAfterMs / 1000).toFixed(1)} s after the server went away (deadline ${ERROR_DEADLINE_MS / 1000} s)`,
		handedOn > 0 && `${what}: the failed node still handed on ${handedOn} items`,
	];
}

/**
 * The server goes away in the middle of a Return All: gone for good (then back for a fresh run that
 * must return everything), and back within the retry window, where the old cursor means nothing to
 * the new server and the node must fail clearly, not restart from page one or return a partial list.
 */
async function serverGone(tickets: number, pages: number): Promise<Array<[string, Found]>> {
	const holder = { sandbox: await startSandbox({ seed: tickets }) };
	try {
		const gone = await interrupted(holder, pages);
		holder.sandbox = await restart(holder.sandbox);
		const fresh = await run(holder.sandbox, singleNodeWorkflow(NODE_TYPE, RETURN_ALL));
		const freshItems = fresh.error ? 0 : fresh.output('Node').length;
		const back = await interrupted(holder, pages, 1000);
		const policy = `retry policy: ${DEFAULT_RETRY_POLICY.maxAttempts} attempts, budget ${DEFAULT_RETRY_POLICY.budgetMs / 1000} s`;
		const goneFor = ({ errorAfterMs }: { errorAfterMs: number }) =>
			`error ${(errorAfterMs / 1000).toFixed(1)} s after the server went away`;
		return [
			[
				`Server gone after page ${pages} of ${tickets / 100} (Return All of ${tickets.toLocaleString('en')}), then back`,
				{
					lines: [
						`${goneFor(gone)} (${policy}): ${describe(gone.result)}`,
						`fresh run after the restart: ${fresh.error ? `failed: ${fresh.error.message}` : `${freshItems} items`}`,
					],
					violations: [
						...judge(gone, CONNECTION_LOST, 'server gone'),
						!!fresh.error && `fresh run after the restart failed: ${fresh.error.message}`,
						!fresh.error &&
							freshItems !== tickets &&
							`fresh run after the restart returned ${freshItems} items, expected ${tickets}`,
					],
				},
			],
			[
				`Server restarted 1 s after page ${pages}, while the node is retrying`,
				{
					lines: [
						`${goneFor(back)}${back.restarted ? ', server back meanwhile' : ''}: ${describe(back.result)}`,
					],
					violations: judge(
						back,
						new RegExp(`cursor|${CONNECTION_LOST.source}`, 'i'),
						'server back during retries',
					),
				},
			],
		];
	} finally {
		await holder.sandbox.stop();
	}
}

type Case = [title: string, soak: (sandbox: Sandbox, faults: FaultOptions) => Promise<Found>];
const FAULT_CASES: Case[] = [
	...(['desc', 'asc'] as const).map(
		(order): Case => [
			`Return All of ${TICKETS.toLocaleString('en')} tickets (created_at ${order}), 429/503 faults and latency, tickets created meanwhile`,
			(sandbox, faults) => returnAll(sandbox, faults, order),
		],
	),
	...[1, DEFAULT_CONCURRENT_REQUESTS].map(
		(k): Case => [
			`${CREATIONS} ticket creations (a ${CREATIONS}-item workflow, Concurrent Requests ${k}), 429/503 faults and latency`,
			(sandbox, faults) => create(sandbox, faults, CREATIONS, k),
		],
	),
];

async function main(): Promise<number> {
	if (process.argv.length > 2)
		throw new Error(`the soak takes no options: ${process.argv.slice(2).join(' ')}`);
	isolateUserFolder();
	console.log(
		`soak: faults ${JSON.stringify({ ...FAULTS, seed: FAULT_SEEDS })}; time limit ${TIME_LIMIT_MS / 1000} s`,
	);
	const started = performance.now();
	const violations: string[] = [];
	let steps = 0;
	const report = (title: string, found: Found): void => {
		const broken = found.violations.filter((v): v is string => typeof v === 'string');
		violations.push(...broken);
		console.log(`\n${++steps}. ${title}\n${found.lines.map((line) => `   ${line}`).join('\n')}`);
		console.log(broken.length === 0 ? '   ok' : broken.map((v) => `   VIOLATION: ${v}`).join('\n'));
	};
	for (const seed of FAULT_SEEDS) {
		for (const [title, soak] of FAULT_CASES) {
			const sandbox = await startSandbox({ seed: TICKETS });
			report(
				`${title} [fault seed ${seed}]`,
				await soak(sandbox, { ...FAULTS, seed }).finally(() => sandbox.stop()),
			);
		}
	}
	for (const [title, found] of await serverGone(TICKETS, STOP_AFTER_PAGES)) report(title, found);
	console.log(`\nsoak: ${steps} steps in ${seconds(started)} s, ${violations.length} violation(s)`);
	return violations.length === 0 ? 0 : 1;
}

// Bounded: whatever happens, the soak ends within the time limit.
const limit = setTimeout(() => {
	console.error(`soak: VIOLATION: not finished within ${TIME_LIMIT_MS / 1000} s`);
	process.exit(1);
}, TIME_LIMIT_MS);

main()
	.then((code) => (process.exitCode = code))
	.catch((error: unknown) => {
		console.error('soak: failed to run:', error);
		process.exitCode = 1;
	})
	.finally(() => clearTimeout(limit));
