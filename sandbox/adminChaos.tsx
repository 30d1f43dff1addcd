/**
 * Admin routes for webhook chaos and the change driver (under /__sandbox/, no auth):
 *
 *   GET    /__sandbox/webhooks/chaos           {chaos, counters}
 *   POST   /__sandbox/webhooks/chaos           replace chaos settings ({} turns chaos off) -> {chaos, counters}
 *   GET    /__sandbox/webhooks/counters        counters
 *   DELETE /__sandbox/webhooks/counters        zero the counters (pending stays)
 *   GET    /__sandbox/webhooks/idle[?timeoutMs=N]   wait until no delivery is under way (default 30000) -> {idle, counters}
 *   POST   /__sandbox/driver                   start the change driver (body: options) -> 201 summary; 409 if one runs
 *   GET    /__sandbox/driver                   summary of the driver started last
 *   POST   /__sandbox/driver/stop              stop it -> final summary
 *   GET    /__sandbox/driver/wait[?timeoutMs=N]     wait until it stops on its own (default 30000) -> summary
 */
import type { ChangeDriver, ChangeDriverOptions } from './changeDriver';
import { validateChangeDriverOptions } from './changeDriver';
import { ApiError } from './errors';
import type { HttpResponse } from './http';
import type { WebhookDispatcher } from './webhooks';

export interface DriverControl {
	start(options: ChangeDriverOptions): ChangeDriver;
	current(): ChangeDriver | undefined;
}

export interface ChaosAdminContext {
	webhooks: WebhookDispatcher;
	driver: DriverControl;
}

const DEFAULT_WAIT_MS = 30_000;
const MAX_WAIT_MS = 600_000;

/** Answers a chaos or driver admin route, or returns undefined when `path` is none of them. */
export async function routeChaosAdmin(
	context: ChaosAdminContext,
	method: string,
	path: string,
	query: URLSearchParams,
	body: () => Record<string, unknown>,
): Promise<HttpResponse | undefined> {
	const { webhooks, driver } = context;
	const chaosState = (): HttpResponse =>
		ok({ chaos: webhooks.getChaos(), counters: webhooks.getCounters() });

	if (path === '/webhooks/chaos' && method === 'GET') return chaosState();
	if (path === '/webhooks/chaos' && method === 'POST') {
		webhooks.setChaos(body());
		return chaosState();
	}
	if (path === '/webhooks/counters' && method === 'GET') return ok(webhooks.getCounters());
	if (path === '/webhooks/counters' && method === 'DELETE') {
		webhooks.resetCounters();
		return { status: 204 };
	}
	if (path === '/webhooks/idle' && method === 'GET') {
		const idle = await within(webhooks.idle(), waitMs(query));
		return ok({ idle, counters: webhooks.getCounters() });
	}
	if (path === '/driver' && method === 'POST') {
		const options = validateChangeDriverOptions(body());
		let started: ChangeDriver;
		try {
			started = driver.start(options);
		} catch (error) {
			throw new ApiError(409, 'conflict', error instanceof Error ? error.message : String(error));
		}
		return { status: 201, body: { data: started.summary() } };
	}
	if (path === '/driver' && method === 'GET') return ok(currentDriver(driver).summary());
	if (path === '/driver/stop' && method === 'POST') return ok(await currentDriver(driver).stop());
	if (path === '/driver/wait' && method === 'GET') {
		const current = currentDriver(driver);
		await within(current.finished, waitMs(query));
		return ok(current.summary());
	}
	return undefined;
}

function currentDriver(driver: DriverControl): ChangeDriver {
	const current = driver.current();
	if (current === undefined)
		throw new ApiError(
			404,
			'not_found',
			'No change driver was started: POST /__sandbox/driver first.',
		);
	return current;
}

function waitMs(query: URLSearchParams): number {
	const raw = query.get('timeoutMs');
	if (raw === null) return DEFAULT_WAIT_MS;
	if (!/^[0-9]+$/.test(raw) || Number(raw) > MAX_WAIT_MS)
		throw new RangeError(`timeoutMs must be an integer from 0 to ${MAX_WAIT_MS}`);
	return Number(raw);
}

/** True if `promise` settled within `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<false>((resolve) => {
		timer = setTimeout(() => resolve(false), ms);
		timer.unref();
	});
	try {
		return await Promise.race([promise.then(() => true), timeout]);
	} finally {
		clearTimeout(timer);
	}
}

function ok(data: unknown): HttpResponse {
	return { status: 200, body: { data } };
}
