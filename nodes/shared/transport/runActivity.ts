import type { NodeExecutionHint } from 'n8n-workflow';

/** What the node did on the user's behalf in one run. */
export interface RunCounts {
	/** Waits a 429 or a 503 with Retry-After asked for, in milliseconds. */
	rateLimitWaitMs: number;
	/** Requests sent again after a 5xx answer or a lost connection. */
	retries: number;
	/** Creates whose answer was lost, found in the list and not sent again. */
	createsFound: number;
	/** Creates sent again after a lost answer and a look-up that did not find them. */
	createsSentAgain: number;
	/** Creates made in an earlier try of this execution (Retry On Fail), returned without sending. */
	createsFromEarlierTry: number;
	/** Lists read from the newest and the oldest end at once. */
	listsFromBothEnds: number;
	/** Lists read from one end only because the service ignored the oldest-first order. */
	listsFromOneEnd: number;
}

/** Counts what happened in one node run, told once under its output as n8n's execution hints. */
export class RunActivity {
	readonly counts: RunCounts = {
		rateLimitWaitMs: 0,
		retries: 0,
		createsFound: 0,
		createsSentAgain: 0,
		createsFromEarlierTry: 0,
		listsFromBothEnds: 0,
		listsFromOneEnd: 0,
	};

	note(what: keyof RunCounts, amount = 1): void {
		this.counts[what] += amount;
	}

	/** One short line per thing that happened; none on a plain run. */
	hints(): NodeExecutionHint[] {
		const c = this.counts;
		const lines = [
			c.rateLimitWaitMs > 0 &&
				`Waited ${seconds(c.rateLimitWaitMs)} in all for the ` +
					"service's rate limit (429 or 503 with Retry-After)",
			c.retries > 0 &&
				`${times(c.retries, 'request was', 'requests were')} ` +
					'sent again after a server error or a lost connection',
			c.createsFound > 0 &&
				`${times(c.createsFound, 'create', 'creates')} lost its answer ` +
					'but had been processed: the record was found, not sent again',
			c.createsSentAgain > 0 &&
				`${times(c.createsSentAgain, 'create was', 'creates were')} ` +
					'sent again: the answer was lost and the record not found',
			c.createsFromEarlierTry > 0 &&
				`${times(c.createsFromEarlierTry, 'record', 'records')} made ` +
					'in an earlier try (Retry On Fail) returned, not sent again',
			c.listsFromBothEnds > 0 && 'Read the list from both ends at once (newest and oldest first)',
			c.listsFromOneEnd > 0 &&
				'Read the list from one end: the service ignored the oldest-first order',
		];
		return lines
			.filter((line): line is string => typeof line === 'string')
			.map((message) => ({ message, location: 'outputPane' }));
	}
}

const times = (n: number, one: string, many: string): string =>
	`${n.toLocaleString('en')} ${n === 1 ? one : many}`;

const seconds = (ms: number): string =>
	`${(ms / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} s`;
