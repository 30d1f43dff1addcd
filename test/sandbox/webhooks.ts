/**
 * Webhook delivery. The spec leaves events "not shown"; the sandbox's choice:
 *
 *   POST <url>   Content-Type: application/json
 *   body         {"id":"evt_<n>","event":"ticket.created","created_at":"<iso>","data":{...resource}}
 *   x-api-key, x-api-timestamp (whole seconds), x-event-id: evt_<n>,
 *   x-api-signature = hex HMAC-SHA256(webhook secret,
 *                       timestamp + "POST" + url pathname+search + sha256hex(body))
 *
 * i.e. the same scheme as API requests. Deliveries to one URL are sequential, in event
 * order; a connection error is retried once after 100 ms; any HTTP status is final (recorded).
 */
import http from 'node:http';
import https from 'node:https';
import { hmacSha256Hex, sha256Hex, signedMessage } from './auth';
import { isoTimestamp } from './records';
import { STORE_EVENTS } from './store';
import type { CancellableTimers } from './timers';

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
	/** HTTP status of the receiver's answer. */
	status?: number;
	/** Connection error, timeout or abort, when no status was received. */
	error?: string;
	done: boolean;
}

export interface WebhookDispatcherConfig {
	apiKey: string;
	defaultSecret: string;
	now: () => number;
	timers: CancellableTimers;
	timeoutMs?: number;
}

interface Registration {
	id: string;
	url: URL;
	events: ReadonlySet<string> | null;
	secret: string;
	/** End of this webhook's delivery chain (keeps event order per URL). */
	tail: Promise<void>;
}

interface AttemptResult {
	status?: number;
	error?: string;
	retryable?: boolean;
}

const RETRY_DELAY_MS = 100;
const DEFAULT_TIMEOUT_MS = 10_000;

class DeliveryTimeout extends Error {}

export class WebhookDispatcher {
	readonly deliveries: WebhookDelivery[] = [];
	private readonly hooks = new Map<string, Registration>();
	private readonly inFlight = new Set<http.ClientRequest>();
	private readonly pending = new Set<Promise<void>>();
	private nextWebhookId = 1;
	private nextEventId = 1;
	private closed = false;

	constructor(private readonly config: WebhookDispatcherConfig) {}

	/** Registers a receiver; throws TypeError for a bad URL, event name or secret. */
	add(options: WebhookOptions): string {
		let url: URL;
		try {
			url = new URL(options.url);
		} catch {
			throw new TypeError(`webhook url is not a valid absolute URL: ${String(options.url)}`);
		}
		if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('webhook url must be http: or https:');
		let events: Set<string> | null = null;
		if (options.events !== undefined) {
			if (!Array.isArray(options.events) || options.events.length === 0) throw new TypeError('webhook events must be a non-empty array of event names');
			const unknown = options.events.filter((e) => !WEBHOOK_EVENTS.includes(e));
			if (unknown.length > 0) throw new TypeError(`unknown webhook event(s): ${unknown.join(', ')}; known: ${WEBHOOK_EVENTS.join(', ')}`);
			events = new Set(options.events);
		}
		if (options.secret !== undefined && (typeof options.secret !== 'string' || options.secret === '')) throw new TypeError('webhook secret must be a non-empty string');
		const id = `whk_${this.nextWebhookId++}`;
		this.hooks.set(id, { id, url, events, secret: options.secret ?? this.config.defaultSecret, tail: Promise.resolve() });
		return id;
	}

	remove(id: string): boolean {
		return this.hooks.delete(id);
	}

	list(): Webhook[] {
		return [...this.hooks.values()].map((h) => ({ id: h.id, url: h.url.href, events: h.events && [...h.events] }));
	}

	/** Queues `event` for every webhook subscribed to it; returns the event id. */
	emit(event: string, data: unknown): string {
		const id = `evt_${this.nextEventId++}`;
		const payload: WebhookPayload = { id, event, created_at: isoTimestamp(Math.floor(this.config.now())), data };
		const body = JSON.stringify(payload);
		for (const hook of this.hooks.values()) {
			if (hook.events !== null && !hook.events.has(event)) continue;
			const delivery: WebhookDelivery = { id, event, url: hook.url.href, webhookId: hook.id, payload, attempts: 0, done: false };
			this.deliveries.push(delivery);
			const run = hook.tail.then(() => this.deliver(hook, delivery, body));
			hook.tail = run;
			this.pending.add(run);
			void run.finally(() => this.pending.delete(run));
		}
		return id;
	}

	/** Resolves once every queued delivery has finished (succeeded, failed or been aborted). */
	async idle(): Promise<void> {
		while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
	}

	/** Aborts in-flight deliveries, skips queued ones, and waits for all of them to settle. */
	async close(): Promise<void> {
		this.closed = true;
		for (const request of this.inFlight) request.destroy(new Error('aborted: sandbox stopped'));
		await this.idle();
	}

	private async deliver(hook: Registration, delivery: WebhookDelivery, body: string): Promise<void> {
		let result: AttemptResult = { error: 'aborted: sandbox stopped' };
		if (!this.closed) result = await this.attempt(hook, delivery, body);
		if (result.retryable && !this.closed) {
			await this.config.timers.sleep(RETRY_DELAY_MS);
			if (!this.closed) result = await this.attempt(hook, delivery, body);
		}
		if (result.status !== undefined) delivery.status = result.status;
		else delivery.error = result.error;
		delivery.done = true;
	}

	private attempt(hook: Registration, delivery: WebhookDelivery, body: string): Promise<AttemptResult> {
		delivery.attempts++;
		const path = hook.url.pathname + hook.url.search;
		// Fresh timestamp per attempt, exactly like a client signing a retried request.
		const timestamp = String(Math.floor(this.config.now() / 1000));
		const signature = hmacSha256Hex(hook.secret, signedMessage(timestamp, 'POST', path, sha256Hex(body)));
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
			request.on('timeout', () => request.destroy(new DeliveryTimeout(`timed out after ${timeoutMs} ms`)));
			// A timeout is not retried: the receiver may have processed the event already.
			request.on('error', (error) => finish({ error: error.message, retryable: !(error instanceof DeliveryTimeout) }));
			request.end(body);
		});
	}
}
