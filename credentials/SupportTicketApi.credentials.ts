import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../nodes/shared/transport/credentialType';
import { signRequestOptions } from '../nodes/shared/signing/signRequestOptions';

export class SupportTicketApi implements ICredentialType {
	name = CREDENTIAL_TYPE;

	displayName = 'Support Ticket API';

	documentationUrl =
		'https://github.com/n8n-nodes-support-ticket/n8n-nodes-support-ticket#credentials';

	icon = {
		light: 'file:../icons/supportTicket.svg',
		dark: 'file:../icons/supportTicket.dark.svg',
	} as const;

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://support.example.com',
			description:
				'Address of your support service, without /api/v1/external (it is ' +
				'appended). A path prefix such as https://example.com/support works.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Sent in the x-api-key header of every request',
		},
		{
			displayName: 'API Secret',
			name: 'apiSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Signs every request (HMAC-SHA256); it never leaves n8n',
		},
		{
			displayName: 'Webhook Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Secret the service signs webhook deliveries with, if it differs from ' +
				'the API Secret. Leave empty to verify deliveries with the API Secret.',
		},
		{
			displayName: 'Previous Webhook Secret',
			name: 'previousWebhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'While you rotate the webhook secret: deliveries signed with this one are ' +
				'accepted too. Clear it once the service signs with the new secret.',
		},
	];

	// A function: signing needs the exact bytes on the wire,
	// which `IAuthenticateGeneric` cannot compute.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return signRequestOptions(
			requestOptions,
			{ apiKey: String(credentials.apiKey ?? ''), apiSecret: String(credentials.apiSecret ?? '') },
			Date.now(),
		);
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: '/api/v1/external/tickets',
			method: 'GET',
			qs: { per_page: 1 },
		},
		// Status rules apply to an error answer, body rules to a success; n8n reads
		// each by its type, hence one cast list.
		rules: [
			// Without a rule n8n shows only the status text ("Unauthorized").
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The service rejected the request signature. Check the API Key ' +
						'and API Secret, and that the Base URL is the right account.',
				},
			},
			// Signed requests follow no redirect (signRequestOptions): say what the answer means.
			...[301, 302, 303, 307, 308].map(
				(value): IAuthenticateRuleResponseCode => ({
					type: 'responseCode',
					properties: {
						value,
						message:
							`The service answered with a redirect (HTTP ${value}), which a ` +
							'signed request does not follow. Set the Base URL to the address ' +
							'the service answers at, often https:// instead of http://.',
					},
				}),
			),
			// A web page or app answers 200 too: the list of tickets must come in its `data` array.
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'data',
					value: undefined,
					message:
						'The address answered, but not as the Support Ticket ' +
						"API (no list of tickets). Set the Base URL to the API's " +
						"address, not a web page's, without /api/v1/external.",
				},
			} satisfies IAuthenticateRuleResponseSuccessBody,
		] as IAuthenticateRuleResponseCode[],
	};
}
