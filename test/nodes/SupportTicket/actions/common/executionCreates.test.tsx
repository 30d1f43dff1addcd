import type { IContextObject, IExecuteFunctions } from 'n8n-workflow';

import { executionCreates } from '../../../../../nodes/SupportTicket/actions/common/executionCreates';

/** Unit test of one function: the claims are keyed by the execution's flow context (getContext('flow')). */
const contextOf = (flow: IContextObject | undefined): IExecuteFunctions =>
	({
		getContext: () => {
			if (!flow) throw new Error('`executionData` is not initialized');
			return flow;
		},
	}) as unknown as IExecuteFunctions;

describe('executionCreates', () => {
	it('gives every node run of one execution the same claims, and another execution its own', () => {
		const execution: IContextObject = {};
		const first = executionCreates(contextOf(execution));
		first.claimed.add('ticket:tkt_1');
		expect(executionCreates(contextOf(execution))).toBe(first);
		expect(executionCreates(contextOf({})).claimed.has('ticket:tkt_1')).toBe(false);
	});

	it('saves only its random value in the execution data (records stay in memory), and reads it back', () => {
		const execution: IContextObject = {};
		const { nonce } = executionCreates(contextOf(execution));
		executionCreates(contextOf(execution)).claimed.add('ticket:tkt_1');
		expect(execution).toEqual({ supportTicketNonce: nonce });
		// A worker that picks the execution up again (queue mode) derives the same keys.
		expect(executionCreates(contextOf({ ...execution })).nonce).toBe(nonce);
	});

	it('without execution data, holds for the node run', () => {
		const run = contextOf(undefined);
		expect(executionCreates(run)).toBe(executionCreates(run));
		expect(executionCreates(contextOf(undefined))).not.toBe(executionCreates(run));
	});
});
