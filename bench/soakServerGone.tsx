/**
 * Soak 3: the server goes away in the middle of a Return All. The run must end with an error
 * that says what happened, within the retry budget, never hang and never hand over the pages
 * read so far as if they were everything. Two cases:
 *  - gone for good: the sandbox stops after page k; then it is started again on the same port
 *    and a fresh run must return everything;
 *  - back within the retry window: stopped after page k and restarted a second later; the node's
 *    retry reaches a server that no longer knows the cursor and must fail clearly, not restart
 *    silently from page one or return a partial list.
 */
import { DEFAULT_RETRY_POLICY } from '../nodes/shared/retryPolicy';
import { runWorkflow, singleNodeWorkflow, type WorkflowRun } from '../test/harness';
import { type Sandbox, startSandbox } from '../test/sandbox';
import { getManyParameters, NODE_TYPE } from './engineTraversal';
import type { SoakStep } from './soakStep';

const LIST = '/api/v1/external/tickets';
/**
 * The package's own words ("Could not reach the service (CODE), still after N attempts"), or the
 * ones n8n's NodeApiError puts in their place for a known connection error code.
 */
const CONNECTION_LOST = /Could not reach the service|refused the connection|closed unexpectedly|perhaps it is offline/i;
/** The retry budget plus what the attempts themselves may take on a loaded machine. */
const ERROR_DEADLINE_MS = DEFAULT_RETRY_POLICY.budgetMs + 10_000;

interface Holder {
	sandbox: Sandbox;
}

function returnAll(sandbox: Sandbox): Promise<WorkflowRun> {
	return runWorkflow(singleNodeWorkflow(NODE_TYPE, getManyParameters()), {
		supportTicketApi: { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret },
	});
}

/**
 * Stops the sandbox as soon as `pages` list pages were answered. `stopped` resolves with the stop
 * time, or undefined when `cancel()` came first (the run ended before page `pages`).
 */
function stopAfterPages(sandbox: Sandbox, pages: number): { stopped: Promise<number | undefined>; cancel(): void } {
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
	return { stopped, cancel: () => cancel() };
}

/** Runs Return All while the sandbox is stopped after `pages` pages; `restartAfterMs` brings it back. */
async function interrupted(holder: Holder, pages: number, restartAfterMs: number | undefined): Promise<{ run: WorkflowRun; errorAfterMs: number; restarted: boolean }> {
	const { sandbox } = holder;
	sandbox.clearLog();
	const stop = stopAfterPages(sandbox, pages);
	let restarted = false;
	const restart = stop.stopped.then(async (stoppedAt) => {
		if (stoppedAt === undefined || restartAfterMs === undefined) return;
		await new Promise((resolve) => setTimeout(resolve, restartAfterMs));
		holder.sandbox = await startSandbox({ port: sandbox.port, seed: sandbox.seeded.tickets, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret });
		restarted = true;
	});
	let deadline: NodeJS.Timeout | undefined;
	const run = await Promise.race([
		returnAll(sandbox),
		new Promise<never>((_, reject) => {
			deadline = setTimeout(() => reject(new Error(`no result ${ERROR_DEADLINE_MS / 1000} s after the start: the node hangs`)), ERROR_DEADLINE_MS + 30_000);
		}),
	]).finally(() => clearTimeout(deadline));
	const endedAt = performance.now();
	stop.cancel();
	const stoppedAt = await stop.stopped;
	await restart;
	return { run, errorAfterMs: stoppedAt === undefined ? Number.NaN : endedAt - stoppedAt, restarted };
}

/** What the user reads on the failed node: message, the messages n8n kept underneath, description. */
function describe(run: WorkflowRun): string {
	const error = run.error as (WorkflowRun['error'] & { messages?: string[] }) | undefined;
	if (!error) return 'no error';
	const underneath = error.messages?.filter((m) => m && m !== error.message) ?? [];
	return [`"${error.message}"`, underneath.length ? `(underneath: ${underneath.map((m) => `"${m}"`).join(', ')})` : '', error.description ? `— ${error.description}` : '']
		.filter(Boolean)
		.join(' ');
}

function judge(run: WorkflowRun, errorAfterMs: number, expected: RegExp, what: string): string[] {
	const violations: string[] = [];
	if (!run.error) {
		const items = run.output('Node').length;
		violations.push(`${what}: the run succeeded with ${items} items instead of failing`);
		return violations;
	}
	if (!expected.test(run.error.message)) violations.push(`${what}: unclear error "${run.error.message}"`);
	if (Number.isNaN(errorAfterMs)) violations.push(`${what}: the run ended before the server was stopped`);
	if (errorAfterMs > ERROR_DEADLINE_MS) violations.push(`${what}: the error came ${(errorAfterMs / 1000).toFixed(1)} s after the server went away (deadline ${ERROR_DEADLINE_MS / 1000} s)`);
	const nodeRun = run.run?.data.resultData.runData.Node?.[0];
	if (nodeRun?.data?.main?.[0]?.length) violations.push(`${what}: the failed node still handed on ${nodeRun.data.main[0].length} items`);
	return violations;
}

export async function soakServerGone(tickets: number, pages: number): Promise<SoakStep[]> {
	const holder: Holder = { sandbox: await startSandbox({ seed: tickets }) };
	const steps: SoakStep[] = [];
	try {
		// Gone for good, then back for a fresh run.
		const gone = await interrupted(holder, pages, undefined);
		const goneViolations = judge(gone.run, gone.errorAfterMs, CONNECTION_LOST, 'server gone');
		holder.sandbox = await startSandbox({ port: holder.sandbox.port, seed: tickets, apiKey: holder.sandbox.apiKey, apiSecret: holder.sandbox.apiSecret });
		const fresh = await returnAll(holder.sandbox);
		const freshItems = fresh.error ? 0 : fresh.output('Node').length;
		if (fresh.error) goneViolations.push(`fresh run after the restart failed: ${fresh.error.message}`);
		else if (freshItems !== tickets) goneViolations.push(`fresh run after the restart returned ${freshItems} items, expected ${tickets}`);
		steps.push({
			title: `Server gone after page ${pages} of ${tickets / 100} (Return All of ${tickets.toLocaleString('en')}), then back`,
			lines: [
				`error ${(gone.errorAfterMs / 1000).toFixed(1)} s after the server went away (retry policy: ${DEFAULT_RETRY_POLICY.maxAttempts} attempts, budget ${DEFAULT_RETRY_POLICY.budgetMs / 1000} s): ${describe(gone.run)}`,
				`fresh run after the restart: ${fresh.error ? `failed: ${fresh.error.message}` : `${freshItems} items`}`,
			],
			violations: goneViolations,
		});

		// Back within the retry window: the old cursor means nothing to the new server.
		const back = await interrupted(holder, pages, 1000);
		steps.push({
			title: `Server restarted 1 s after page ${pages}, while the node is retrying`,
			lines: [
				`error ${(back.errorAfterMs / 1000).toFixed(1)} s after the server went away${back.restarted ? ', server back meanwhile' : ''}: ${describe(back.run)}`,
			],
			violations: judge(back.run, back.errorAfterMs, new RegExp(`cursor|${CONNECTION_LOST.source}`, 'i'), 'server back during retries'),
		});
	} finally {
		await holder.sandbox.stop();
	}
	return steps;
}
