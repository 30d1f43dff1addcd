/**
 * startSandbox(): a strict, in-memory Support Ticket API on node:http, bound to 127.0.0.1.
 * See README.md in this folder for behaviour chosen where the spec says "not shown" (docs/api.md#open-points).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DriverControl, handleAdminRequest, isAdminPath } from './admin';
import { ChangeDriver, type ChangeDriverOptions } from './changeDriver';
import { type ApiContext, handleApiRequest } from './api';
import { DEFAULT_MAX_SKEW_SECONDS } from './auth';
import { CursorCodec } from './cursor';
import { FaultInjector, type FaultOptions } from './faults';
import { IdempotencyKeys } from './idempotencyKeys';
import { type HttpResponse, readRequestBody, writeResponse } from './http';
import { type CallFilter, RequestLog, type RequestLogEntry } from './requestLog';
import { type SeedSummary, seedStore } from './seed';
import { SandboxStore } from './store';
import { checkResponseShape, type ResponseShape } from './responseShape';
import { CancellableTimers } from './timers';
import { formatResponseTimestamps, type TimestampFormat } from './timestampFormat';
import type { WebhookChaosOptions, WebhookCounters } from './webhookChaos';
import { type WebhookDelivery, WebhookDispatcher, type WebhookOptions } from './webhooks';

export const DEFAULT_API_KEY = 'sandbox-key';
export const DEFAULT_API_SECRET = 'sandbox-secret';
export const SANDBOX_HOST = '127.0.0.1';

export interface SandboxOptions {
	/** TCP port; 0 (default) picks a free one. The host is always 127.0.0.1. */
	port?: number;
	/** Number of seeded tickets (default 0). */
	seed?: number;
	/** PRNG seed for the seed data (default 1). */
	seedRandom?: number;
	/** Default 'sandbox-key'. */
	apiKey?: string;
	/** Default 'sandbox-secret'. */
	apiSecret?: string;
	/** Additional accepted API key -> secret pairs. */
	keys?: Record<string, string>;
	/** Clock in epoch ms (default Date.now): auth skew, created_at, updated_at, webhook timestamps. */
	now?: () => number;
	/** Accepted |client - server| timestamp difference in seconds (default 300). */
	maxSkewSeconds?: number;
	/** How the API writes created_at / updated_at (default 'iso': ISO 8601 UTC with milliseconds). */
	timestampFormat?: TimestampFormat;
	/** Webhook chaos from the start (see webhookChaos.tsx); setWebhookChaos changes it later. */
	webhookChaos?: WebhookChaosOptions;
	/** Honour `Idempotency-Key` on creates: a repeat gets the first answer and creates nothing (default false, as a service that ignores it). */
	idempotencyKeys?: boolean;
}

export interface Sandbox {
	/** `http://127.0.0.1:<port>`: the credential's Base URL; the API lives under /api/v1/external (docs/api.md#base-address-and-versioning). */
	readonly baseUrl: string;
	readonly port: number;
	readonly apiKey: string;
	readonly apiSecret: string;
	/** What the seed option created. */
	readonly seeded: SeedSummary;
	/** How the API writes created_at / updated_at (the option timestampFormat). */
	readonly timestampFormat: TimestampFormat;
	/** Data access for assertions and HTTP-free setup (writes validate and fire webhooks). */
	readonly store: SandboxStore;
	/** Live request log of the API surface (admin calls are not logged). */
	readonly log: readonly RequestLogEntry[];
	clearLog(): void;
	countCalls(filter?: CallFilter): number;
	/** Replaces the fault configuration; setFaults({}) clears it. Throws RangeError on bad values. */
	setFaults(faults: FaultOptions): void;
	getFaults(): FaultOptions;
	/** Registers a webhook receiver; returns its id. */
	addWebhook(options: WebhookOptions): string;
	removeWebhook(id: string): boolean;
	readonly deliveries: readonly WebhookDelivery[];
	/** Resolves when every queued webhook delivery has finished. */
	webhooksIdle(): Promise<void>;
	/** Sends an event of any name with the given data to subscribed webhooks; returns the event id. */
	emit(event: string, data: unknown): string;
	/** Replaces the webhook chaos settings; `{}` turns chaos off. Throws RangeError on bad values. */
	setWebhookChaos(options: WebhookChaosOptions): void;
	getWebhookChaos(): WebhookChaosOptions;
	/** Delivery counters since start (or the last reset): delivered, dropped, duplicated, reordered, retried, failed, pending, ... */
	webhookCounters(): WebhookCounters;
	resetWebhookCounters(): void;
	/** Starts the change driver (one at a time: throws if one is running). */
	startDriver(options?: ChangeDriverOptions): ChangeDriver;
	/** The driver started last, running or not. */
	readonly driver: ChangeDriver | undefined;
	/** Closes the server and every connection, aborts deliveries, cancels timers. Idempotent. */
	stop(): Promise<void>;
	/** A new cursor key, as a restart gives: every cursor issued so far is rejected (`invalid_cursor`). */
	renewCursorKey(): void;
	/** Replaces how successes are shaped (responseShape.tsx); `{}` restores the spec's shapes (docs/api.md#answers). */
	setResponseShape(shape: ResponseShape): void;
	/**
	 * Holds API answers: `gate` sees every request once its answer is ready and the answer is sent
	 * when the returned promise settles (forces an interleaving, e.g. the sync proof's race).
	 * `undefined` removes it.
	 */
	setAnswerGate(gate: AnswerGate | undefined): void;
}

/** See Sandbox.setAnswerGate; `answer` is the response about to be sent (body before timestamp formatting). */
export type AnswerGate = (
	entry: RequestLogEntry,
	answer: HttpResponse,
) => Promise<void> | undefined;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const now = options.now ?? Date.now;
	const apiKey = options.apiKey ?? DEFAULT_API_KEY;
	const apiSecret = options.apiSecret ?? DEFAULT_API_SECRET;
	const keys = new Map<string, string>(Object.entries(options.keys ?? {}));
	keys.set(apiKey, apiSecret);

	const store = new SandboxStore(now);
	const seeded = seedStore(store, options.seed ?? 0, options.seedRandom ?? 1, now());
	const timers = new CancellableTimers();
	const faults = new FaultInjector();
	const log = new RequestLog();
	const webhooks = new WebhookDispatcher({
		apiKey,
		defaultSecret: apiSecret,
		now,
		timers,
		chaos: options.webhookChaos,
	});
	store.onEvent((event, data) => webhooks.emit(event, data));
	let driver: ChangeDriver | undefined;
	const driverControl: DriverControl = {
		start: (driverOptions) => {
			if (stopped) throw new Error('the sandbox is stopped');
			if (driver?.running) throw new Error('a change driver is already running: stop it first');
			driver = new ChangeDriver(store, now, driverOptions);
			return driver;
		},
		current: () => driver,
	};

	let stopped = false;
	let answerGate: AnswerGate | undefined;
	let baseUrl = '';
	const apiContext: ApiContext = {
		store,
		cursors: new CursorCodec(),
		faults,
		timers,
		keys,
		now,
		maxSkewSeconds: options.maxSkewSeconds ?? DEFAULT_MAX_SKEW_SECONDS,
		isStopped: () => stopped,
		responseShape: {},
		...(options.idempotencyKeys ? { idempotencyKeys: new IdempotencyKeys() } : {}),
	};

	const handle = async (
		request: http.IncomingMessage,
		response: http.ServerResponse,
	): Promise<void> => {
		const method = request.method ?? 'GET';
		const target = request.url ?? '/';
		const admin = isAdminPath(target);
		const entry = admin ? undefined : log.start(method, target);
		try {
			const body = await readRequestBody(request);
			if (admin) {
				writeResponse(
					response,
					await handleAdminRequest(
						{ store, log, faults, webhooks, driver: driverControl, baseUrl, apiKey },
						method,
						target,
						body,
					),
				);
				return;
			}
			if (entry === undefined) return;
			if (body.json?.ok) entry.body = body.json.value;
			const idempotencyKey = request.headers['idempotency-key'];
			if (typeof idempotencyKey === 'string') entry.idempotencyKey = idempotencyKey;
			const result = await handleApiRequest(apiContext, request, body, entry);
			if (result === undefined) {
				response.destroy();
				return;
			}
			await answerGate?.(entry, result);
			// A service's Date header is its own clock (the node reads the offset from it).
			response.setHeader('date', new Date(now()).toUTCString());
			writeResponse(response, formatResponseTimestamps(result, options.timestampFormat ?? 'iso'));
			log.finish(entry, result.status);
		} catch (error) {
			// A sandbox bug (or an aborted upload): answer 500 so it is visible, never hang.
			if (request.destroyed || response.destroyed) {
				// The client went away mid-request: nothing to answer; status stays 0.
				if (entry) entry.errorCode = 'client_aborted';
				return;
			}
			console.error('sandbox: unexpected error', error);
			const message = error instanceof Error ? error.message : String(error);
			writeResponse(response, {
				status: 500,
				body: { error: { code: 'internal_error', message: `Sandbox internal error: ${message}` } },
			});
			if (entry) log.finish(entry, 500);
		}
	};

	const server = http.createServer((request, response) => void handle(request, response));
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, SANDBOX_HOST, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;
	baseUrl = `http://${SANDBOX_HOST}:${port}`;

	let stopping: Promise<void> | undefined;
	const stop = (): Promise<void> => {
		stopping ??= (async () => {
			stopped = true;
			await driver?.stop();
			timers.cancelAll();
			const closed = new Promise<void>((resolve) => server.close(() => resolve()));
			server.closeAllConnections();
			await webhooks.close();
			await closed;
		})();
		return stopping;
	};

	return {
		baseUrl,
		port,
		apiKey,
		apiSecret,
		seeded,
		store,
		timestampFormat: options.timestampFormat ?? 'iso',
		get log() {
			return log.entries;
		},
		clearLog: () => log.clear(),
		countCalls: (filter) => log.count(filter),
		setFaults: (settings) => faults.set(settings),
		getFaults: () => faults.get(),
		addWebhook: (webhook) => webhooks.add(webhook),
		removeWebhook: (id) => webhooks.remove(id),
		get deliveries() {
			return webhooks.deliveries;
		},
		webhooksIdle: () => webhooks.idle(),
		emit: (event, data) => webhooks.emit(event, data),
		setWebhookChaos: (chaos) => webhooks.setChaos(chaos),
		getWebhookChaos: () => webhooks.getChaos(),
		webhookCounters: () => webhooks.getCounters(),
		resetWebhookCounters: () => webhooks.resetCounters(),
		startDriver: (driverOptions) => driverControl.start(driverOptions ?? {}),
		get driver() {
			return driver;
		},
		stop,
		renewCursorKey: () => {
			apiContext.cursors = new CursorCodec();
		},
		setResponseShape: (shape) => {
			apiContext.responseShape = checkResponseShape(shape);
		},
		setAnswerGate: (gate) => {
			answerGate = gate;
		},
	};
}
