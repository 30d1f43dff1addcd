import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

// Test-only node: one request per item through `httpRequestWithAuthentication`, the way every node reaches the
// credential's `authenticate()`, in any shape n8n may hand it.
export class SignedRequest implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Signed Request (test)',
		name: 'signedRequest',
		group: ['transform'],
		version: 1,
		description: 'Sends one signed request per item',
		defaults: { name: 'Signed Request' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'supportTicketApi', required: true }],
		properties: [
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'Use Base URL', name: 'useBaseUrl', type: 'boolean', default: true },
			{ displayName: 'Query (JSON)', name: 'qs', type: 'json', default: '' },
			{ displayName: 'Body (JSON)', name: 'body', type: 'json', default: '' },
			{ displayName: 'Body As Text', name: 'bodyAsText', type: 'boolean', default: false },
			// What n8n's HTTP Request node sends: the older helper, the address as `uri`.
			{ displayName: 'Legacy Request', name: 'legacy', type: 'boolean', default: false },
			// Where a legacy request carries its body: the HTTP Request node's Body Content Type
			// "Form Urlencoded" puts it in `form`, "Form-Data" in `formData`.
			{
				displayName: 'Legacy Body Field',
				name: 'legacyBodyField',
				type: 'string',
				default: 'body',
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const credentials = await this.getCredentials('supportTicketApi');
		const out: INodeExecutionData[] = [];
		const items = this.getInputData();
		for (let i = 0; i < items.length; i++) {
			const qs = this.getNodeParameter('qs', i) as string | IDataObject;
			const body = this.getNodeParameter('body', i) as string | IDataObject;
			const bodyAsText = this.getNodeParameter('bodyAsText', i) as boolean;
			const options: IHttpRequestOptions = {
				method: this.getNodeParameter('method', i) as IHttpRequestMethods,
				url: this.getNodeParameter('url', i) as string,
				json: true,
				returnFullResponse: true,
			};
			if (this.getNodeParameter('useBaseUrl', i)) options.baseURL = credentials.baseUrl as string;
			if (qs) options.qs = typeof qs === 'string' ? JSON.parse(qs) : qs;
			if (body) {
				const parsed = typeof body === 'string' ? JSON.parse(body) : body;
				options.body = bodyAsText ? JSON.stringify(parsed) : parsed;
			}
			let response: { statusCode: number; body: IDataObject };
			if (this.getNodeParameter('legacy', i)) {
				const { url, baseURL, returnFullResponse, ...rest } = options;
				const legacy: IDataObject = {
					...rest,
					uri: baseURL ? `${baseURL}${url}` : url,
					resolveWithFullResponse: returnFullResponse,
					headers: {},
				};
				const bodyField = this.getNodeParameter('legacyBodyField', i) as string;
				if (bodyField !== 'body' && legacy.body !== undefined) {
					legacy[bodyField] = legacy.body;
					delete legacy.body;
				}
				response = await this.helpers.requestWithAuthentication.call(
					this,
					'supportTicketApi',
					legacy,
					undefined,
					i,
				);
			} else {
				response = await this.helpers.httpRequestWithAuthentication.call(
					this,
					'supportTicketApi',
					options,
				);
			}
			out.push({
				json: { statusCode: response.statusCode, body: response.body },
				pairedItem: { item: i },
			});
		}
		return [out];
	}
}
