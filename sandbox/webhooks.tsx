/**
 * Webhook delivery. The spec leaves events "not shown" (docs/api.md#webhooks); the sandbox's choice:
 *
 *   POST <url>   Content-Type: application/json
 *   body         {"id":"evt_<n>","event":"ticket.created","created_at":"<iso>","data":{...resource}}
 *   x-api-key, x-api-timestamp (whole seconds), x-event-id: evt_<n>,
 *   x-api-signature = hex HMAC-SHA256(webhook secret,
 *                       timestamp + "POST" + url pathname+search + sha256hex(body))
 *
 * i.e. the same scheme as API requests. Without chaos, deliveries to one URL are sequential, in
 * event order; a connection error is tried once more after 100 ms; any HTTP status is final
 * (recorded). With chaos (webhookChaos.tsx) deliveries can be dropped, duplicated, delayed,
 * reordered, sent concurrently, and retried with backoff on any non-2xx answer or error.
 */
import http from 'node:http';
import https from 'node:https';
import { hmacSha256Hex, sha256Hex, signedMessage } from './auth';
import { isoTimestamp } from './records';
import { STORE_EVENTS } from './store';
import type { CancellableTimers } from './timers';
import {
	ChaosDice,
	DEFAULT_BACKOFF_MS,
	DEFAULT_REORDER_HOLD_MS,
	emptyCounters,
	validateWebhookChaos,
	type WebhookChaosOptions,
	type WebhookCounters,
} from './webhookChaos';

export const WEBHOOK_EVENTS: readonly string[] = STORE_EVENTS;

export interface WebhookOptions {
	url: string;
	/** Event names to receive; default: every event (including custom ones sent with emit). */
	events?: string[];
	/** HMAC key for x-api-signature; default: the sandbox's API secret. */
	secret?: string;
}

export interface Webhook {
	id: string;
	url: string;
	events: string[] | null;
}

export interface WebhookPayload {
	id: string;
	event: string;
	created_at: string;
	data: unknown;
}

export interface WebhookDelivery {
	/** The event id (evt_<n>); one event sent to two webhooks gives two deliveries with one id. */
	id: string;
	event: string;
	url: string;
	webhookId: string;
	payload: WebhookPayload;
	attempts: number;
	/** HTTP status of the receiver's last answer. */
	status?: number;
	/** Connection error, timeout or abort, when the last attempt received no status. */
	error?: string;
	done: boolean;
	/** Chaos dropped it: never sent (done, 0 attempts). */
	dropped?: true;
	/** Chaos added this copy of an event that is also delivered on its own. */
	duplicate?: true;
	/** Sent after a later event had already been sent to this webhook. */
	reordered?: true;
}

export interface WebhookDispatcherConfig {
	apiKey: string;
	defaultSecret: string;
	now: () => number;
	timers: CancellableTimers;
	timeoutMs?: number;
	chaos?: WebhookChaosOptions;
}

/** One copy of a delivery on its way to one webhook. */
interface Send {
	hook: Registration;
	delivery: WebhookDelivery;
	body: string;
	/** Event number, for detecting reordering. */
	seq: number;
}

interface Registration {
	id: string;
	url: URL;
	events: ReadonlySet<string> | null;
	secret: string;
	/** Sends ready to go, in the order they will start. */
	queue: Send[];
	active: number;
	/** Sends held for the reorder window. */
	held: Send[];
	/** Bumped on each flush, so a stale hold timer flushes nothing. */
	holdGeneration: number;
	maxStartedSeq: number;
}

interface AttemptResult {
	status?: number;
	error?: string;
	retryable?: boolean;
}

const RECONNECT_DELAY_MS = 100;
const DEFAULT_TIMEOUT_MS = 10_000;
const ABORTED = 'aborted: sandbox stopped';

class DeliveryTimeout extends Error {}

export class WebhookDispatcher {
	readonly deliveries: WebhookDelivery[] = [];
	private readonly hooks = new Map<string, Registration>();
	private readonly inFlight = new Set<http.ClientRequest>();
	private counters: WebhookCounters = emptyCounters();
	private chaos: ChaosDice | null = null;
	private outstanding = 0;
	private idleWaiters: Array<() => void> = [];
	private nextWebhookId = 1;
	private nextEventId = 1;
	private closed = false;

	constructor(private readonly config: WebhookDispatcherConfig) {
		if (config.chaos !== undefined) this.setChaos(config.chaos);
	}

	/** Registers a receiver; throws TypeError for a bad URL, event name or secret. */
	add(options: WebhookOptions): string {
		let url: URL;
		try {
			url = new URL(options.url);
		} catch {
			throw new TypeError(`webhook url is not a valid absolute URL: ${String(options.url)}`);
		}
		if (url.protocol !== 'http:' && url.protocol !== 'https:')
			throw new TypeError('webhook url must be http: or https:');
		let events: Set<string> | null = null;
		if (options.events !== undefined) {
			if (!Array.isArray(options.events) || options.events.length === 0)
				throw new TypeError('webhook events must be a non-empty array of event names');
			const unknown = options.events.filter((e) => !WEBHOOK_EVENTS.includes(e));
			if (unknown.length > 0)
				throw new TypeError(
					`unknown webhook event(s): ${unknown.join(', ')}; known: ${WEBHOOK_EVENTS.join(', ')}`,
				);
			events = new Set(options.events);
		}
		if (
			options.secret !== undefined &&
			(typeof options.secret !== 'string' || options.secret === '')
		)
			throw new TypeError('webhook secret must be a non-empty string');
		const id = `whk_${this.nextWebhookId++}`;
		this.hooks.set(id, {
			id,
			url,
			events,
			secret: options.secret ?? this.config.defaultSecret,
			queue: [],
			active: 0,
			held: [],
			holdGeneration: 0,
			maxStartedSeq: 0,
		});
		return id;
	}

	/** Stops new events for this webhook; deliveries already under way still finish. */
	remove(id: string): boolean {
		return this.hooks.delete(id);
	}

	list(): Webhook[] {
		return [...this.hooks.values()].map((h) => ({
			id: h.id,
			url: h.url.href,
			events: h.events && [...h.events],
		}));
	}

	/** Replaces the chaos settings (`{}` turns chaos off, re-seeding on every call); throws RangeError on bad values. */
	setChaos(options: WebhookChaosOptions): void {
		const valid = validateWebhookChaos(options);
		this.chaos = Object.keys(valid).length === 0 ? null : new ChaosDice(valid);
		// A smaller window or a higher concurrency applies to what is already waiting.
		for (const hook of this.hooks.values()) {
			if (hook.held.length >= (this.chaos?.options.reorderWindow ?? 1)) this.flushHeld(hook);
			this.pump(hook);
		}
	}

	getChaos(): WebhookChaosOptions {
		return { ...(this.chaos?.options ?? {}) };
	}

	getCounters(): WebhookCounters {
		return { ...this.counters };
	}

	/** Zeroes every counter except `pending` (which counts what is still under way). */
	resetCounters(): void {
		this.counters = { ...emptyCounters(), pending: this.counters.pending };
	}

	/** Queues `event` for every webhook subscribed to it; returns the event id. */
	emit(event: string, data: unknown): string {
		const seq = this.nextEventId++;
		const id = `evt_${seq}`;
		const payload: WebhookPayload = {
			id,
			event,
			created_at: isoTimestamp(Math.floor(this.config.now())),
			data,
		};
		const body = JSON.stringify(payload);
		for (const hook of this.hooks.values()) {
			if (hook.events !== null && !hook.events.has(event)) continue;
			this.counters.deliveries++;
			const copies = this.chaos?.copies() ?? 1;
			const delivery: WebhookDelivery = {
				id,
				event,
				url: hook.url.href,
				webhookId: hook.id,
				payload,
				attempts: 0,
				done: copies === 0,
			};
			this.deliveries.push(delivery);
			if (copies === 0) {
				delivery.dropped = true;
				this.counters.dropped++;
				continue;
			}
			this.schedule({ hook, delivery, body, seq });
			if (copies === 2) {
				const copy: WebhookDelivery = { ...delivery, duplicate: true };
				this.deliveries.push(copy);
				this.counters.duplicated++;
				this.schedule({ hook, delivery: copy, body, seq });
			}
		}
		return id;
	}

	/** Resolves once every delivery has finished (succeeded, failed or been aborted), retries included. */
	idle(): Promise<void> {
		if (this.outstanding === 0) return Promise.resolve();
		return new Promise((resolve) => this.idleWaiters.push(resolve));
	}

	/** Aborts in-flight deliveries, skips waiting ones, and waits for all of them to settle. */
	async close(): Promise<void> {
		this.closed = true;
		for (const request of this.inFlight) request.destroy(new Error(ABORTED));
		for (const hook of this.hooks.values()) this.flushHeld(hook);
		await this.idle();
	}

	private schedule(send: Send): void {
		this.outstanding++;
		this.counters.pending++;
		const delay = this.chaos?.delayMs() ?? 0;
		if (delay > 0) void this.config.timers.sleep(delay).then(() => this.hold(send));
		else this.hold(send);
	}

	private hold(send: Send): void {
		const { hook } = send;
		const window = this.chaos?.options.reorderWindow ?? 1;
		if (window <= 1 || this.closed) {
			this.enqueue(send);
			return;
		}
		hook.held.push(send);
		if (hook.held.length >= window) {
			this.flushHeld(hook);
		} else if (hook.held.length === 1) {
			const generation = hook.holdGeneration;
			void this.config.timers
				.sleep(this.chaos?.options.reorderHoldMs ?? DEFAULT_REORDER_HOLD_MS)
				.then(() => {
					if (hook.holdGeneration === generation) this.flushHeld(hook);
				});
		}
	}

	private flushHeld(hook: Registration): void {
		hook.holdGeneration++;
		const held = hook.held.splice(0);
		for (const send of this.chaos ? this.chaos.shuffle(held) : held) this.enqueue(send);
	}

	private enqueue(send: Send): void {
		send.hook.queue.push(send);
		this.pump(send.hook);
	}

	private pump(hook: Registration): void {
		const concurrency = this.chaos?.options.concurrency ?? 1;
		while (hook.active < concurrency && hook.queue.length > 0) {
			const send = hook.queue.shift() as Send;
			hook.active++;
			void this.run(send).finally(() => {
				hook.active--;
				this.pump(hook);
			});
		}
	}

	private async run(send: Send): Promise<void> {
		const { hook, delivery } = send;
		if (this.closed) return this.finish(send, { error: ABORTED });
		if (send.seq < hook.maxStartedSeq && !delivery.reordered) {
			delivery.reordered = true;
			this.counters.reordered++;
		}
		hook.maxStartedSeq = Math.max(hook.maxStartedSeq, send.seq);
		let result = await this.attempt(send);
		const maxAttempts = this.chaos?.options.maxAttempts ?? 1;
		if (maxAttempts > 1) {
			// Like a real service: any answer but 2xx, a refused connection or a timeout is retried
			// later, without holding up newer deliveries (so a retried one can arrive after them).
			if (!isSuccess(result) && delivery.attempts < maxAttempts && !this.closed) {
				const wait = this.chaos?.backoffMs(delivery.attempts) ?? DEFAULT_BACKOFF_MS;
				void this.config.timers.sleep(wait).then(() => this.enqueue(send));
				return;
			}
		} else if (result.retryable && !this.closed) {
			// Without retries configured, only a failed connection is tried once more, at once.
			await this.config.timers.sleep(RECONNECT_DELAY_MS);
			if (!this.closed) result = await this.attempt(send);
		}
		this.finish(send, result);
	}

	private finish(send: Send, result: AttemptResult): void {
		const { delivery } = send;
		if (result.status !== undefined) {
			delivery.status = result.status;
			delete delivery.error;
		} else {
			delivery.error = result.error;
		}
		delivery.done = true;
		if (isSuccess(result)) this.counters.delivered++;
		else this.counters.failed++;
		this.counters.pending--;
		this.outstanding--;
		if (this.outstanding === 0) {
			const waiters = this.idleWaiters;
			this.idleWaiters = [];
			for (const resolve of waiters) resolve();
		}
	}

	private attempt(send: Send): Promise<AttemptResult> {
		const { hook, delivery, body } = send;
		delivery.attempts++;
		this.counters.attempts++;
		if (delivery.attempts > 1) this.counters.retried++;
		const path = hook.url.pathname + hook.url.search;
		// Fresh timestamp per attempt, exactly like a client signing a retried request.
		const timestamp = String(Math.floor(this.config.now() / 1000));
		const signature = hmacSha256Hex(
			hook.secret,
			signedMessage(timestamp, 'POST', path, sha256Hex(body)),
		);
		const transport = hook.url.protocol === 'https:' ? https : http;
		const timeoutMs = this.config.timeoutMs ?? DEFAULT_TIMEOUT_MS;

		return new Promise((resolve) => {
			let settled = false;
			const request = transport.request({
				hostname: hook.url.hostname.replace(/^\[(.*)\]$/, '$1'),
				port: hook.url.port || undefined,
				path,
				method: 'POST',
				agent: false, // one connection per delivery: nothing pooled outlives stop()
				timeout: timeoutMs,
				headers: {
					'content-type': 'application/json',
					'content-length': Buffer.byteLength(body),
					'x-api-key': this.config.apiKey,
					'x-api-timestamp': timestamp,
					'x-api-signature': signature,
					'x-event-id': delivery.id,
				},
			});
			const finish = (result: AttemptResult): void => {
				if (settled) return;
				settled = true;
				this.inFlight.delete(request);
				resolve(result);
			};
			this.inFlight.add(request);
			request.on('response', (response) => {
				const status = response.statusCode ?? 0;
				response.resume();
				response.on('end', () => finish({ status }));
				response.on('close', () => finish({ status }));
			});
			request.on('timeout', () =>
				request.destroy(new DeliveryTimeout(`timed out after ${timeoutMs} ms`)),
			);
			// Without retries configured a timeout is final: the receiver may have processed the event already.
			request.on('error', (error) =>
				finish({ error: error.message, retryable: !(error instanceof DeliveryTimeout) }),
			);
			request.end(body);
		});
	}
}

function isSuccess(result: AttemptResult): boolean {
	return result.status !== undefined && result.status >= 200 && result.status < 300;
}
