/**
 * `npm run soak`: the node under faults, through n8n's engine in-process, against the sandbox in the
 * same process. Bounded in time; prints counts; exits 1 on any violation.
 *
 *   node build/bench/soak.js [--fault-seeds 1,2,3] [--retry-after 0]
 *
 * Faults: 15% 429 + 15% 503, latency 0–20 ms on every request, `Retry-After: 0` by default so the
 * soak takes seconds (waiting for a Retry-After is covered by the retry-policy tests). The fault
 * draws come from a seeded PRNG and only the node's requests draw, so a run replays exactly; the
 * fault steps run once per fault seed, each on a freshly seeded sandbox.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_CONCURRENT_REQUESTS } from '../nodes/SupportTicket/actions/common.descriptions';
import { DEFAULT_RETRY_POLICY } from '../nodes/shared/retryPolicy';
import { isolateUserFolder, itemsWorkflow, runWorkflow, singleNodeWorkflow, type WorkflowRun } from '../test/harness';
import { type FaultOptions, type Sandbox, startSandbox } from '../test/sandbox';
import { option } from './report';
import { getManyParameters, NODE_TYPE } from './traversal';

/** What one soak step reports: counts to print, and what broke the rules (empty when none). */
interface SoakStep {
	title: string;
	lines: string[];
	violations: string[];
}

const TICKETS = 10_000;
const CREATIONS = 500;
const STOP_AFTER_PAGES = 30;
const TIME_LIMIT_MS = 5 * 60_000;
const LIST = '/api/v1/external/tickets';
const credentialsOf = (sandbox: Sandbox) => ({ supportTicketApi: { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret } });
const seconds = (since: number): string => ((performance.now() - since) / 1000).toFixed(1);

/**
 * Return All of 10,000 tickets under faults while tickets are being created, straight into the
 * store (no fault draws), from the first answered page on: every ticket that existed at the start
 * comes back exactly once, nothing twice; newest first, no new ticket may come back (each sorts
 * before the cursor).
 */
async function soakReturnAll(sandbox: Sandbox, faults: FaultOptions, sortOrder: 'desc' | 'asc'): Promise<SoakStep> {
	const title = `Return All of ${sandbox.store.ticketCount.toLocaleString('en')} tickets (created_at ${sortOrder}), 429/503 faults and latency, tickets created meanwhile`;
	const initial = new Set(sandbox.store.listTickets().map((ticket) => ticket.id));
	sandbox.clearLog();
	sandbox.setFaults(faults);
	const createdMeanwhile = new Set<string>();
	const creator = setInterval(() => {
		if (sandbox.countCalls({ pathname: LIST, status: 200 }) === 0) return;
		const n = createdMeanwhile.size + 1;
		const ticket = sandbox.store.createTicket({ subject: `created during the soak traversal #${n}`, description: 'A new ticket while Return All is paging.', customer: { email: `soak-${n % 50}@example.com` } });
		createdMeanwhile.add(ticket.id);
	}, 5);
	const started = performance.now();
	const parameters = { ...getManyParameters(), options: { sortBy: 'created_at', sortOrder } };
	const result = await runWorkflow(singleNodeWorkflow(NODE_TYPE, parameters), credentialsOf(sandbox)).finally(() => {
		clearInterval(creator);
		sandbox.setFaults({});
	});
	const log = sandbox.log.filter((entry) => entry.pathname === LIST);
	const injected = log.filter((entry) => entry.fault !== undefined).length;
	const pages = log.filter((entry) => entry.status === 200).length;
	if (result.error) {
		const message = result.error.message;
		return { title, lines: [`the run failed after ${seconds(started)} s, ${pages} pages, ${injected} injected faults: ${message}`], violations: [`Return All (${sortOrder}) under faults failed: ${message}`] };
	}
	const counts = new Map<string, number>();
	for (const item of result.output('Node')) counts.set((item.json as IDataObject).id as string, (counts.get((item.json as IDataObject).id as string) ?? 0) + 1);
	const missing = [...initial].filter((id) => !counts.has(id)).length;
	const duplicated = [...counts.values()].filter((n) => n > 1).length;
	const initialOnce = [...initial].filter((id) => counts.get(id) === 1).length;
	const newReturned = [...counts.keys()].filter((id) => createdMeanwhile.has(id)).length;
	const unknown = [...counts.keys()].filter((id) => !initial.has(id) && !createdMeanwhile.has(id)).length;
	const returned = [...counts.values()].reduce((sum, n) => sum + n, 0);
	return {
		title,
		lines: [
			`${returned} items in ${seconds(started)} s: ${initialOnce} of ${initial.size} initial tickets exactly once, ${missing} missing, ${duplicated} duplicated`,
			`${createdMeanwhile.size} tickets created during the traversal, ${newReturned} of them returned${sortOrder === 'desc' ? ' (newest first: none expected)' : ' (oldest first: those created before the traversal reached the end)'}`,
			`${log.length} requests: ${pages} pages answered, ${injected} injected 429/503 retried`,
		],
		violations: [
			initialOnce !== initial.size ? `${initial.size - initialOnce} of the ${initial.size} tickets that existed at the start did not come back exactly once (${missing} missing)` : '',
			duplicated > 0 ? `${duplicated} tickets came back more than once` : '',
			unknown > 0 ? `${unknown} returned ids are neither initial nor created meanwhile` : '',
			sortOrder === 'desc' && newReturned > 0 ? `${newReturned} tickets created during a newest-first traversal came back (they sort before the cursor)` : '',
		].filter(Boolean),
	};
}

/**
 * A 500-item workflow creates 500 tickets under faults, one at a time or concurrently. A faulted POST
 * was not processed, so the node may and must retry it: afterwards exactly 500 new tickets exist,
 * each once, and the node returned 500 items in input order.
 */
async function soakCreate(sandbox: Sandbox, count: number, faults: FaultOptions, concurrentRequests: number): Promise<SoakStep> {
	const tag = `soak-${Date.now().toString(36)}`;
	const items = Array.from({ length: count }, (_, i) => ({ subject: `${tag} #${i + 1}`, description: `Soak ticket ${i + 1} of ${count}`, email: `soak-creator-${i % 20}@example.com` }));
	const before = sandbox.store.ticketCount;
	sandbox.clearLog();
	sandbox.setFaults(faults);
	const started = performance.now();
	const parameters = { resource: 'ticket', operation: 'create', subject: '={{ $json.subject }}', description: '={{ $json.description }}', customerEmail: '={{ $json.email }}', options: { concurrentRequests } };
	const result = await runWorkflow(itemsWorkflow(items, NODE_TYPE, parameters), credentialsOf(sandbox)).finally(() => sandbox.setFaults({}));
	const subjects = new Map<string, number>();
	for (const { subject } of sandbox.store.listTickets()) if (subject.startsWith(`${tag} #`)) subjects.set(subject, (subjects.get(subject) ?? 0) + 1);
	const created = [...subjects.values()].reduce((sum, n) => sum + n, 0);
	const duplicated = [...subjects.values()].filter((n) => n > 1).length;
	const posts = sandbox.log.filter((entry) => entry.method === 'POST');
	const output = result.error ? [] : result.output('Node');
	const inOrder = output.every((item, i) => item.json.subject === items[i].subject);
	// The chance that one request is faulted on every attempt, so the node gives up on it.
	const rate = (faults.rate429 ?? 0) + (faults.rate503 ?? 0);
	const attempts = DEFAULT_RETRY_POLICY.maxAttemptsNotProcessed;
	const perRequest = rate ** attempts;
	return {
		title: `${count} ticket creations (a ${count}-item workflow, Concurrent Requests ${concurrentRequests}), 429/503 faults and latency`,
		lines: [
			`${result.error ? `failed after ${seconds(started)} s: ${result.error.message}` : `succeeded in ${seconds(started)} s`}; node output ${output.length} items`,
			`tickets afterwards: ${sandbox.store.ticketCount - before} new (${created} with this run's subjects, ${subjects.size} distinct, ${duplicated} duplicated)`,
			`${posts.length} POSTs: ${posts.filter((e) => e.status === 201).length} answered 201, ${posts.filter((e) => e.fault !== undefined).length} injected 429/503 retried`,
			`odds: at ${(rate * 100).toFixed(0)}% faults and ${attempts} attempts a request is given up with p = ${(perRequest * 100).toFixed(3)}%, a run of ${count} with p = ${((1 - (1 - perRequest) ** count) * 100).toFixed(0)}%`,
		],
		violations: [
			result.error ? `the creation run failed: ${result.error.message}` : '',
			created !== count ? `${created} tickets exist afterwards, expected exactly ${count}` : '',
			duplicated > 0 ? `${duplicated} tickets were created more than once` : '',
			!result.error && output.length !== count ? `the node returned ${output.length} items, expected ${count}` : '',
			!result.error && !inOrder ? 'the output is not in input order' : '',
		].filter(Boolean),
	};
}

/** The package's own words ("Could not reach the service …"), or those n8n's NodeApiError puts in their place for a connection error code. */
const CONNECTION_LOST = /Could not reach the service|refused the connection|closed unexpectedly|perhaps it is offline/i;
/** The retry budget plus what the attempts themselves may take on a loaded machine. */
const ERROR_DEADLINE_MS = DEFAULT_RETRY_POLICY.budgetMs + 10_000;

/** Return All while the sandbox is stopped after `pages` answered pages; `restartAfterMs` brings a fresh one back on the same port. */
async function interrupted(holder: { sandbox: Sandbox }, pages: number, restartAfterMs: number | undefined): Promise<{ run: WorkflowRun; errorAfterMs: number; restarted: boolean }> {
	const { sandbox } = holder;
	sandbox.clearLog();
	let cancel = (): void => undefined;
	const stopped = new Promise<number | undefined>((resolve) => {
		let triggered = false;
		const watcher = setInterval(() => {
			if (sandbox.countCalls({ pathname: LIST, status: 200 }) < pages) return;
			clearInterval(watcher);
			triggered = true;
			const stoppedAt = performance.now();
			void sandbox.stop().then(() => resolve(stoppedAt));
		}, 1);
		cancel = () => {
			clearInterval(watcher);
			// Once triggered, the stop itself resolves (with its time) when the server is closed.
			if (!triggered) resolve(undefined);
		};
	});
	let restarted = false;
	const restart = stopped.then(async (stoppedAt) => {
		if (stoppedAt === undefined || restartAfterMs === undefined) return;
		await new Promise((resolve) => setTimeout(resolve, restartAfterMs));
		holder.sandbox = await startSandbox({ port: sandbox.port, seed: sandbox.seeded.tickets, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret });
		restarted = true;
	});
	let deadline: NodeJS.Timeout | undefined;
	const hang = new Promise<never>((_, reject) => (deadline = setTimeout(() => reject(new Error(`no result ${ERROR_DEADLINE_MS / 1000} s after the start: the node hangs`)), ERROR_DEADLINE_MS + 30_000)));
	const run = await Promise.race([runWorkflow(singleNodeWorkflow(NODE_TYPE, getManyParameters()), credentialsOf(sandbox)), hang]).finally(() => clearTimeout(deadline));
	const endedAt = performance.now();
	cancel();
	const stoppedAt = await stopped;
	await restart;
	return { run, errorAfterMs: stoppedAt === undefined ? Number.NaN : endedAt - stoppedAt, restarted };
}

/** What the user reads on the failed node: message, the messages n8n kept underneath, description. */
function describe(run: WorkflowRun): string {
	const error = run.error as (WorkflowRun['error'] & { messages?: string[] }) | undefined;
	if (!error) return 'no error';
	const underneath = error.messages?.filter((m) => m && m !== error.message) ?? [];
	return [`"${error.message}"`, underneath.length ? `(underneath: ${underneath.map((m) => `"${m}"`).join(', ')})` : '', error.description ? `— ${error.description}` : ''].filter(Boolean).join(' ');
}

/** The run must fail with a clear error within the retry budget, never hang, never hand over the pages read so far. */
function judge({ run, errorAfterMs }: { run: WorkflowRun; errorAfterMs: number }, expected: RegExp, what: string): string[] {
	if (!run.error) return [`${what}: the run succeeded with ${run.output('Node').length} items instead of failing`];
	const handedOn = run.run?.data.resultData.runData.Node?.[0]?.data?.main?.[0]?.length ?? 0;
	return [
		expected.test(run.error.message) ? '' : `${what}: unclear error "${run.error.message}"`,
		Number.isNaN(errorAfterMs) ? `${what}: the run ended before the server was stopped` : '',
		errorAfterMs > ERROR_DEADLINE_MS ? `${what}: the error came ${(errorAfterMs / 1000).toFixed(1)} s after the server went away (deadline ${ERROR_DEADLINE_MS / 1000} s)` : '',
		handedOn ? `${what}: the failed node still handed on ${handedOn} items` : '',
	].filter(Boolean);
}

/**
 * The server goes away in the middle of a Return All: gone for good (then back for a fresh run that
 * must return everything), and back within the retry window, where the old cursor means nothing to
 * the new server and the node must fail clearly, not restart from page one or return a partial list.
 */
async function soakServerGone(tickets: number, pages: number): Promise<SoakStep[]> {
	const holder = { sandbox: await startSandbox({ seed: tickets }) };
	try {
		const gone = await interrupted(holder, pages, undefined);
		const violations = judge(gone, CONNECTION_LOST, 'server gone');
		holder.sandbox = await startSandbox({ port: holder.sandbox.port, seed: tickets, apiKey: holder.sandbox.apiKey, apiSecret: holder.sandbox.apiSecret });
		const fresh = await runWorkflow(singleNodeWorkflow(NODE_TYPE, getManyParameters()), credentialsOf(holder.sandbox));
		const freshItems = fresh.error ? 0 : fresh.output('Node').length;
		if (fresh.error) violations.push(`fresh run after the restart failed: ${fresh.error.message}`);
		else if (freshItems !== tickets) violations.push(`fresh run after the restart returned ${freshItems} items, expected ${tickets}`);
		const policy = `retry policy: ${DEFAULT_RETRY_POLICY.maxAttempts} attempts, budget ${DEFAULT_RETRY_POLICY.budgetMs / 1000} s`;
		const back = await interrupted(holder, pages, 1000);
		return [
			{
				title: `Server gone after page ${pages} of ${tickets / 100} (Return All of ${tickets.toLocaleString('en')}), then back`,
				lines: [`error ${(gone.errorAfterMs / 1000).toFixed(1)} s after the server went away (${policy}): ${describe(gone.run)}`, `fresh run after the restart: ${fresh.error ? `failed: ${fresh.error.message}` : `${freshItems} items`}`],
				violations,
			},
			{
				title: `Server restarted 1 s after page ${pages}, while the node is retrying`,
				lines: [`error ${(back.errorAfterMs / 1000).toFixed(1)} s after the server went away${back.restarted ? ', server back meanwhile' : ''}: ${describe(back.run)}`],
				violations: judge(back, new RegExp(`cursor|${CONNECTION_LOST.source}`, 'i'), 'server back during retries'),
			},
		];
	} finally {
		await holder.sandbox.stop();
	}
}

function integers(name: string, fallback: string): number[] {
	const values = option(name, fallback).split(',').map(Number);
	if (!values.every((value) => Number.isSafeInteger(value) && value >= 0)) throw new Error(`--${name} takes non-negative integers, comma-separated`);
	return values;
}

async function main(): Promise<number> {
	isolateUserFolder();
	const seeds = integers('fault-seeds', '1,2,3');
	const [retryAfter] = integers('retry-after', '0');
	const faultsFor = (seed: number): FaultOptions => ({ rate429: 0.15, rate503: 0.15, latencyMs: [0, 20], retryAfter, seed });
	console.log(`soak: faults ${JSON.stringify({ ...faultsFor(0), seed: seeds })}; time limit ${TIME_LIMIT_MS / 1000} s`);
	const started = performance.now();
	const steps: SoakStep[] = [];
	const report = (done: SoakStep[], label = ''): void => {
		for (const step of done) {
			steps.push(label ? { ...step, title: `${step.title} [${label}]` } : step);
			console.log(`\n${steps.length}. ${steps[steps.length - 1].title}\n${step.lines.map((line) => `   ${line}`).join('\n')}`);
			console.log(step.violations.length === 0 ? '   ok' : step.violations.map((v) => `   VIOLATION: ${v}`).join('\n'));
		}
	};
	for (const seed of seeds) {
		const faults = faultsFor(seed);
		for (const step of [
			(sandbox: Sandbox) => soakReturnAll(sandbox, faults, 'desc'),
			(sandbox: Sandbox) => soakReturnAll(sandbox, faults, 'asc'),
			(sandbox: Sandbox) => soakCreate(sandbox, CREATIONS, faults, 1),
			(sandbox: Sandbox) => soakCreate(sandbox, CREATIONS, faults, DEFAULT_CONCURRENT_REQUESTS),
		]) {
			const sandbox = await startSandbox({ seed: TICKETS });
			report([await step(sandbox).finally(() => sandbox.stop())], `fault seed ${seed}`);
		}
	}
	report(await soakServerGone(TICKETS, STOP_AFTER_PAGES));
	const violations = steps.flatMap((step) => step.violations);
	console.log(`\nsoak: ${steps.length} steps in ${seconds(started)} s, ${violations.length} violation(s)`);
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
