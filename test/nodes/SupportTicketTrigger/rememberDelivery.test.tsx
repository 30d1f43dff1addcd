import type { IDataObject } from 'n8n-workflow';

import { rememberDelivery } from '../../../nodes/SupportTicketTrigger/rememberDelivery';

describe('rememberDelivery', () => {
	it('says new once per id and keeps only the most recent ids', () => {
		const staticData: IDataObject = {};
		expect(rememberDelivery(staticData, 'evt_1', 3)).toBe(true);
		expect(rememberDelivery(staticData, 'evt_1', 3)).toBe(false);
		for (const id of ['evt_2', 'evt_3', 'evt_4'])
			expect(rememberDelivery(staticData, id, 3)).toBe(true);
		expect(staticData.seenEventIds).toEqual(['evt_2', 'evt_3', 'evt_4']);
		// The oldest id was forgotten, so it counts as new again: the bound is what keeps static data small.
		expect(rememberDelivery(staticData, 'evt_1', 3)).toBe(true);
		expect(rememberDelivery(staticData, 'evt_4', 3)).toBe(false);
	});

	it('tolerates static data written by something else', () => {
		const staticData: IDataObject = { seenEventIds: 'not a list' };
		expect(rememberDelivery(staticData, 'evt_1')).toBe(true);
		expect(staticData.seenEventIds).toEqual(['evt_1']);
	});
});
