/**
 * Record of every request to the API surface (everything except /__sandbox/ admin calls),
 * so tests can assert what a client actually sent: how many calls, which query, which body.
 * An entry is appended when the request arrives and completed when it is answered
 * (`status` is 0 while in flight). Long benchmarks should call clear() now and then.
 */
import { performance } from 'node:perf_hooks';
import type { InjectedFault } from './faults';

export interface RequestLogEntry {
	seq: number;
	method: string;
	/** Raw request target as received (`req.url`), including the query string. */
	path: string;
	/** Path without the query string (still percent-encoded). */
	pathname: string;
	/** Decoded query parameters (a repeated parameter keeps its last value here). */
	query: Record<string, string>;
	/** Response status; 0 until answered. */
	status: number;
	/** Set when the response was an injected fault. */
	fault?: InjectedFault;
	/** Error code of a 401, when authentication failed. */
	authError?: string;
	/** Error code of any error response. */
	errorCode?: string;
	/** Parsed JSON body, when the request had one that parsed. */
	body?: unknown;
	/** The request's `Idempotency-Key` header, when it had one. */
	idempotencyKey?: string;
	/** Wall-clock arrival time, epoch ms. */
	startedAt: number;
	durationMs: number;
}

export interface CallFilter {
	method?: string;
	pathname?: string | RegExp;
	status?: number;
}

export class RequestLog {
	readonly entries: RequestLogEntry[] = [];
	private nextSeq = 1;
	private readonly startTimes = new WeakMap<RequestLogEntry, number>();

	start(method: string, path: string): RequestLogEntry {
		const queryStart = path.indexOf('?');
		const entry: RequestLogEntry = {
			seq: this.nextSeq++,
			method,
			path,
			pathname: queryStart === -1 ? path : path.slice(0, queryStart),
			query:
				queryStart === -1
					? {}
					: Object.fromEntries(new URLSearchParams(path.slice(queryStart + 1))),
			status: 0,
			startedAt: Date.now(),
			durationMs: 0,
		};
		this.startTimes.set(entry, performance.now());
		this.entries.push(entry);
		return entry;
	}

	finish(entry: RequestLogEntry, status: number): void {
		entry.status = status;
		entry.durationMs = performance.now() - (this.startTimes.get(entry) ?? performance.now());
	}

	/** Empties the log in place (references to `entries` stay valid). */
	clear(): void {
		this.entries.length = 0;
	}

	count(filter: CallFilter = {}): number {
		return this.entries.filter((e) => matchesFilter(e, filter)).length;
	}

	since(seq: number): RequestLogEntry[] {
		return this.entries.filter((e) => e.seq > seq);
	}
}

function matchesFilter(entry: RequestLogEntry, filter: CallFilter): boolean {
	if (filter.method !== undefined && entry.method.toUpperCase() !== filter.method.toUpperCase())
		return false;
	if (filter.status !== undefined && entry.status !== filter.status) return false;
	if (filter.pathname !== undefined) {
		if (typeof filter.pathname === 'string') return entry.pathname === filter.pathname;
		filter.pathname.lastIndex = 0; // a /g or /y RegExp would otherwise carry state between entries
		return filter.pathname.test(entry.pathname);
	}
	return true;
}
