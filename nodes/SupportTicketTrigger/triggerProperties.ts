import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_TOLERANCE_SECONDS } from '../shared/signing/signature';
import { moreInfo } from '../shared/descriptions/moreInfo';
import { optionsCollection } from '../shared/descriptions/optionsCollection';
import { ANY_EVENT, KNOWN_EVENTS } from './selectEvent';

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			"Copy the <b>Production URL</b> above into the service's webhook settings " +
			'and activate this workflow (the service has no API to register it). The ' +
			'<b>Test URL</b> receives only while you listen for a test event.',
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		options: KNOWN_EVENTS,
		default: [ANY_EVENT],
		required: true,
		description:
			'Other events are answered 200 and start nothing. Add names ' +
			'not listed here under Options > Additional Event Names.',
	},
	{
		displayName: 'Verify Signature',
		name: 'verifySignature',
		type: 'boolean',
		default: true,
		description:
			"Whether to accept only deliveries signed with the credential's " +
			'Webhook Secret (or API Secret), or its Previous Webhook Secret ' +
			'while you rotate. Others are answered 401 and start nothing.',
	},
	{
		displayName:
			'Without signature verification anyone who knows this URL can ' +
			'start the workflow with any data. Turn it off only for a test.',
		name: 'unverifiedWarning',
		type: 'notice',
		default: '',
		displayOptions: { show: { verifySignature: [false] } },
	},
	optionsCollection([
		{
			displayName: 'Additional Event Names',
			name: 'customEvents',
			type: 'string',
			default: '',
			placeholder: 'e.g. ticket.merged, ticket.*',
			description:
				'Further event names to accept, separated by commas. A ' +
				'name ending in .* accepts every event with that prefix.',
		},
		{
			displayName: 'Drop Repeated Deliveries',
			name: 'dropDuplicates',
			type: 'boolean',
			default: true,
			description:
				'Whether to start nothing for a delivery already received (same ID, same ' +
				`content). The last 1,000 are remembered. ${moreInfo('webhook-trigger.md')}.`,
		},
		{
			displayName: 'Event Field',
			name: 'eventField',
			type: 'string',
			default: 'event',
			placeholder: 'e.g. event or meta.type',
			description: 'Field of the delivery that holds the event name (a dot path for nested fields)',
		},
		{
			displayName: 'Include Headers',
			name: 'includeHeaders',
			type: 'boolean',
			default: false,
			description:
				'Whether to add the request headers to the output item under ' +
				'"headers" (without x-api-key, Authorization and Cookie)',
		},
		{
			displayName: 'Public Path',
			name: 'publicPath',
			type: 'string',
			default: '',
			placeholder: 'e.g. /n8n/webhook/abc123/support-ticket',
			description:
				'The path the service calls, if a proxy in front of n8n rewrites ' +
				'it (the signature covers that path). Leave empty otherwise.',
		},
		{
			displayName: 'Timestamp Tolerance (Seconds)',
			name: 'toleranceSeconds',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_TOLERANCE_SECONDS,
			description:
				"How far a delivery's x-api-timestamp may be from " +
				"this server's clock; others are rejected as replays",
		},
	]),
];
