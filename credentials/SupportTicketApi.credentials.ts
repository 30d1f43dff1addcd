import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { signRequestOptions } from '../nodes/shared/signRequestOptions';

export class SupportTicketApi implements ICredentialType {
	name = 'supportTicketApi';

	displayName = 'Support Ticket API';

	documentationUrl = 'https://github.com/n8n-nodes-support-ticket/n8n-nodes-support-ticket#credentials';

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
				'Address of your support service, without /api/v1/external (it is appended). A path prefix such as https://example.com/support works.',
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
				'Secret the service signs webhook deliveries with, if it differs from the API Secret. Leave empty to verify deliveries with the API Secret.',
		},
	];

	// Signing needs the exact bytes that go on the wire, which a declarative `IAuthenticateGeneric`
	// cannot compute: hence a function.
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
		// Without a rule n8n shows only the status text ("Unauthorized").
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The service rejected the request signature: check the API key or API secret (and that the Base URL is the right account)',
				},
			},
		],
	};
}
