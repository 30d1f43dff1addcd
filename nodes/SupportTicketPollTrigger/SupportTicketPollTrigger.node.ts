import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../shared/transport/credentialType';
import { readTicketState } from '../shared/parameters/choice';
import { pollFeed, scanChanges } from './changeFeed';
import {
	DEFAULT_MAX_PAGES_PER_POLL,
	DEFAULT_OVERLAP_MINUTES,
	pollProperties,
	pollSource,
	type PollEvent,
} from './pollProperties';
import { readPages } from './readPages';

export class SupportTicketPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Support Ticket Poll Trigger',
		name: 'supportTicketPollTrigger',
		icon: {
			light: 'file:../../icons/supportTicket.svg',
			dark: 'file:../../icons/supportTicket.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"]}}',
		description:
			'Starts the workflow when tickets or customers appear or change in ' +
			'the External Support Ticket API, by polling (no public URL needed)',
		defaults: { name: 'Support Ticket Poll Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: pollProperties,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event = this.getNodeParameter('event') as PollEvent;
		const filters =
			event === 'newCustomer' || event === 'updatedCustomer'
				? {}
				: (this.getNodeParameter('filters', {}) as IDataObject);
		const options = this.getNodeParameter('options', {}) as IDataObject;
		// Status before priority: `query` identifies saved poll state by this JSON.
		const chosen = readTicketState(this, filters, 0);
		const source = pollSource(event, chosen);

		// A manual run shows the newest record, so fields can be mapped; it saves no state.
		if (this.getMode() === 'manual') {
			for await (const page of readPages.call(this, source, { cursor: null, perPage: 1 })) {
				return page !== 'cursorRejected' && page.items.length
					? [this.helpers.returnJsonArray(page.items[0])]
					: null;
			}
			return null;
		}

		const overlapMinutes = Number(options.overlapMinutes ?? DEFAULT_OVERLAP_MINUTES);
		const settings = {
			source,
			query: JSON.stringify({ event, ...chosen }),
			emitExisting: options.emitExisting === true,
			// At least one page, or nothing would ever be read.
			maxPagesPerPoll: Math.max(
				1,
				Math.floor(Number(options.maxPagesPerPoll)) || DEFAULT_MAX_PAGES_PER_POLL,
			),
			overlapMs:
				Number.isFinite(overlapMinutes) && overlapMinutes > 0 ? overlapMinutes * 60_000 : 0,
		};
		const records =
			event === 'updatedCustomer'
				? await scanChanges.call(this, settings)
				: await pollFeed.call(this, { ...settings, compareStates: event === 'updatedTicket' });
		return records.length ? [this.helpers.returnJsonArray(records)] : null;
	}
}
