import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../../sandbox';
import type { SandboxFixture } from '../../harness';
import { runNode } from '../supportTicketNode';

const LIST = /\/(tickets|customers|replies)$/;

/**
 * A gateway that holds each list answer until a second one is ready (or `aloneMs` passed), then
 * sends both: the sizes returned are the list round trips one after another (2: two lists in flight
 * at once). Counts rounds, not time; `sandbox.setAnswerGate(undefined)` removes it.
 */
export function countListRounds(sandbox: Sandbox, aloneMs = 500): number[] {
	const rounds: number[] = [];
	let held: (() => void) | undefined;
	sandbox.setAnswerGate((entry) => {
		if (entry.method !== 'GET' || !LIST.test(entry.pathname)) return undefined;
		if (held !== undefined) {
			held();
			held = undefined;
			rounds.push(2);
			return undefined;
		}
		return new Promise<void>((resolve) => {
			const alone = setTimeout(() => {
				held = undefined;
				rounds.push(1);
				resolve();
			}, aloneMs);
			held = () => {
				clearTimeout(alone);
				resolve();
			};
		});
	});
	return rounds;
}

/** The list requests of the log whose query asked for the oldest first. */
export const oldestFirstCalls = (sandbox: Sandbox) =>
	sandbox.log.filter((e) => e.method === 'GET' && e.query.sort === 'asc');

/** What the node wrote to n8n's log as warnings during each test of the enclosing block. */
export function useLoggedWarnings(): string[] {
	const warnings: string[] = [];
	beforeEach(() => {
		warnings.length = 0;
		jest
			.spyOn(Container.get(Logger), 'warn')
			.mockImplementation((message: string) => void warnings.push(message));
	});
	afterEach(() => jest.restoreAllMocks());
	return warnings;
}

/** Creates `count` tickets as list answers number `answers` (1: the first) go out. */
export function createTicketsDuringRead(sandbox: Sandbox, answers: number[], count: number) {
	const customer = { email: 'during@example.com' };
	let answered = 0;
	sandbox.setAnswerGate((entry) => {
		if (entry.method !== 'GET' || !answers.includes(++answered)) return undefined;
		for (let n = 0; n < count; n++)
			sandbox.store.createTicket({
				subject: `During ${answered}.${n}`,
				description: '-',
				customer,
			});
		return undefined;
	});
}

/** Tickets in groups sharing one created_at (the pinned clock), oldest group first, 1 ms apart. */
export function createTickets(sandbox: Sandbox, clock: { ms: number }, groups: number[]) {
	const customer = { email: 'ties@example.com' };
	for (const size of groups) {
		clock.ms += 1;
		for (let n = 0; n < size; n++)
			sandbox.store.createTicket({ subject: `At ${clock.ms} #${n}`, description: '-', customer });
	}
}

export const singles = (count: number) => new Array<number>(count).fill(1);

export interface Loop {
	ids: string[];
	runs: number;
	calls: number;
	/** Each run's next_cursor but the last. */
	positions: string[];
}

/** Runs Get Many until has_more is false, each run from the last one's next_cursor, as a loop does. */
export async function readInRuns(
	{ sandbox, credentials }: SandboxFixture,
	parameters: IDataObject,
	path = '/api/v1/external/tickets',
): Promise<Loop> {
	sandbox.clearLog();
	const ids: string[] = [];
	const positions: string[] = [];
	let cursor = '';
	for (let runs = 1; runs <= 300; runs++) {
		const result = await runNode(
			{ operation: 'getAll', pagination: 'onePage', cursor, ...parameters },
			credentials,
		);
		if (result.error) throw result.error;
		const [page] = result.output('Node').map((item) => item.json);
		for (const item of page.data as IDataObject[]) ids.push(item.id as string);
		if (!page.has_more)
			return { ids, runs, calls: sandbox.countCalls({ pathname: path }), positions };
		cursor = page.next_cursor as string;
		positions.push(cursor);
	}
	throw new Error('The loop did not end in 300 runs');
}

/** Each id once, and exactly the ids of `expected` (in any order). */
export function expectEachOnce(ids: string[], expected: string[]) {
	expect(new Set(ids).size).toBe(ids.length);
	expect([...ids].sort()).toEqual([...expected].sort());
}

export const ticketIds = (fixture: SandboxFixture) =>
	fixture.sandbox.store.listTickets().map((t) => t.id);

/** Options → Read From Both Ends. */
export const BOTH_ENDS = { readFromBothEnds: true };

export type Paging = 'Return All' | 'One Page per Run';

/** Get Many (of tickets unless `parameters` say otherwise) by Return All, or by a loop of One Page per Run runs: the
 * ids, and the calls to `path`. */
export async function readList(
	fixture: SandboxFixture,
	paging: Paging,
	parameters: IDataObject = {},
	path = '/api/v1/external/tickets',
): Promise<{ ids: string[]; calls: number }> {
	const all = { resource: 'ticket', ...parameters };
	if (paging === 'One Page per Run') return await readInRuns(fixture, all, path);
	fixture.sandbox.clearLog();
	const result = await runNode(
		{ operation: 'getAll', returnAll: true, ...all },
		fixture.credentials,
	);
	if (result.error) throw result.error;
	const ids = result.output('Node').map((item) => item.json.id as string);
	return { ids, calls: fixture.sandbox.countCalls({ pathname: path }) };
}
