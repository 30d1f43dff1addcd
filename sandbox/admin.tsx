/**
 * Unauthenticated admin surface under /__sandbox/ (never under /api), for the CLI and
 * out-of-process tools. The sandbox only listens on 127.0.0.1.
 *
 *   GET    /__sandbox/state               counts, faults, webhooks
 *   GET    /__sandbox/log[?since=<seq>]   request log entries
 *   DELETE /__sandbox/log                 clear the log
 *   GET    /__sandbox/faults              current fault settings
 *   POST   /__sandbox/faults              replace fault settings ({} clears; latencyMs, rateLimit too)
 *   GET    /__sandbox/webhooks            webhooks and deliveries
 *   POST   /__sandbox/webhooks            {url, events?, secret?} -> {data: {id, ...}}
 *   DELETE /__sandbox/webhooks/<id>       remove a webhook
 *   GET    /__sandbox/behaviour           {reply_moves_ticket}: what the spec leaves open (docs/api.md#fields)
 *   POST   /__sandbox/behaviour           change it, e.g. {"reply_moves_ticket": false}
 *
 * Webhook chaos and change driver routes: adminChaos.tsx.
 */
import { type ChaosAdminContext, routeChaosAdmin } from './adminChaos';
import { ApiError } from './errors';
import type { FaultInjector } from './faults';
import type { HttpResponse, RequestBody } from './http';
import type { RequestLog } from './requestLog';
import type { SandboxStore } from './store';
import type { WebhookDispatcher } from './webhooks';

export const ADMIN_PREFIX = '/__sandbox';

export type { DriverControl } from './adminChaos';

export interface AdminContext extends ChaosAdminContext {
	store: SandboxStore;
	log: RequestLog;
	faults: FaultInjector;
	webhooks: WebhookDispatcher;
	baseUrl: string;
	apiKey: string;
}

export function isAdminPath(target: string): boolean {
	return (
		target === ADMIN_PREFIX ||
		target.startsWith(`${ADMIN_PREFIX}/`) ||
		target.startsWith(`${ADMIN_PREFIX}?`)
	);
}

export async function handleAdminRequest(
	context: AdminContext,
	method: string,
	target: string,
	body: RequestBody,
): Promise<HttpResponse> {
	try {
		const url = new URL(target, 'http://sandbox.invalid');
		const chaos = await routeChaosAdmin(
			context,
			method,
			url.pathname.slice(ADMIN_PREFIX.length),
			url.searchParams,
			() => jsonBody(body) as Record<string, unknown>,
		);
		return chaos ?? route(context, method, target, body);
	} catch (error) {
		if (error instanceof ApiError)
			return { status: error.status, body: error.toBody(), headers: error.headers };
		// Bad settings (RangeError/TypeError from faults or webhooks) are the caller's mistake.
		if (error instanceof RangeError || error instanceof TypeError) return badRequest(error.message);
		throw error;
	}
}

function route(
	context: AdminContext,
	method: string,
	target: string,
	body: RequestBody,
): HttpResponse {
	const url = new URL(target, 'http://sandbox.invalid');
	const path = url.pathname.slice(ADMIN_PREFIX.length);
	const { store, log, faults, webhooks } = context;

	if (path === '/state' && method === 'GET') {
		return ok({
			base_url: context.baseUrl,
			api_key: context.apiKey,
			tickets: store.ticketCount,
			customers: store.customerCount,
			replies: store.replyCount,
			requests: log.entries.length,
			faults: faults.get(),
			webhooks: webhooks.list(),
			deliveries: webhooks.deliveries.length,
			pending_deliveries: webhooks.deliveries.filter((d) => !d.done).length,
			webhook_chaos: webhooks.getChaos(),
			webhook_counters: webhooks.getCounters(),
			driver: context.driver.current()?.summary() ?? null,
		});
	}
	if (path === '/log' && method === 'GET') {
		const since = Number(url.searchParams.get('since') ?? 0);
		return ok(Number.isFinite(since) ? log.since(since) : log.entries);
	}
	if (path === '/log' && method === 'DELETE') {
		log.clear();
		return { status: 204 };
	}
	if (path === '/faults' && method === 'GET') return ok(faults.get());
	if (path === '/faults' && method === 'POST') {
		faults.set(jsonBody(body) as Parameters<FaultInjector['set']>[0]);
		return ok(faults.get());
	}
	if (path === '/webhooks' && method === 'GET')
		return ok({ webhooks: webhooks.list(), deliveries: webhooks.deliveries });
	if (path === '/webhooks' && method === 'POST') {
		const { url: hookUrl, events, secret } = jsonBody(body) as Record<string, unknown>;
		const id = webhooks.add({
			url: hookUrl as string,
			events: events as string[] | undefined,
			secret: secret as string | undefined,
		});
		return { status: 201, body: { data: webhooks.list().find((w) => w.id === id) } };
	}
	if (path === '/behaviour' && method === 'GET')
		return ok({ reply_moves_ticket: store.replyMovesTicket });
	if (path === '/behaviour' && method === 'POST') {
		const { reply_moves_ticket: replyMovesTicket, ...unknown } = jsonBody(body) as Record<
			string,
			unknown
		>;
		if (Object.keys(unknown).length > 0)
			throw new RangeError(
				`unknown behaviour setting(s): ${Object.keys(unknown).join(', ')}; known: reply_moves_ticket`,
			);
		if (replyMovesTicket !== undefined && typeof replyMovesTicket !== 'boolean')
			throw new RangeError('reply_moves_ticket must be true or false');
		if (replyMovesTicket !== undefined) store.replyMovesTicket = replyMovesTicket;
		return ok({ reply_moves_ticket: store.replyMovesTicket });
	}
	const hookMatch = /^\/webhooks\/([^/]+)$/.exec(path);
	if (hookMatch && method === 'DELETE') {
		if (!webhooks.remove(hookMatch[1]))
			throw new ApiError(404, 'not_found', `Webhook '${hookMatch[1]}' was not found.`);
		return { status: 204 };
	}
	throw new ApiError(
		404,
		'not_found',
		`No admin route for ${method} ${url.pathname}. See sandbox/README.md.`,
	);
}

/** Admin bodies are lenient about Content-Type (curl -d sends a form type); empty means {}. */
function jsonBody(body: RequestBody): unknown {
	if (body.json === undefined) return {};
	if (!body.json.ok)
		throw new ApiError(
			400,
			'invalid_json',
			`The request body is not valid JSON: ${body.json.reason}.`,
		);
	if (
		typeof body.json.value !== 'object' ||
		body.json.value === null ||
		Array.isArray(body.json.value)
	) {
		throw new ApiError(400, 'invalid_json', 'The request body must be a JSON object.');
	}
	return body.json.value;
}

function ok(data: unknown): HttpResponse {
	return { status: 200, body: { data } };
}

function badRequest(message: string): HttpResponse {
	return { status: 400, body: new ApiError(400, 'invalid_request', message).toBody() };
}
