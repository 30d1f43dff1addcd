import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../shared/transport/credentialType';
import {
	API_KEY_HEADER,
	DEFAULT_TOLERANCE_SECONDS,
	SIGNATURE_HEADER,
	sha256Hex,
} from '../shared/signing/signature';
import { rememberDelivery } from './rememberDelivery';
import { isSelectedEvent, parseEventList, readEventName } from './selectEvent';
import { signedPath } from './signedPath';
import { verifyWebhookSignature, type RequestHeaders } from './verifyWebhookSignature';

const EVENT_ID_HEADER = 'x-event-id';

/**
 * What n8n's Express request offers a webhook node (typed here: the package has no express types).
 */
interface ReceivedRequest {
	headers: RequestHeaders;
	body?: unknown;
	rawBody?: Buffer;
	originalUrl?: string;
	url?: string;
}

interface TriggerOptions {
	eventField?: string;
	customEvents?: string;
	publicPath?: string;
	toleranceSeconds?: number;
	dropDuplicates?: boolean;
	includeHeaders?: boolean;
}

/**
 * Unsigned: 401. Not selected or already received: 200, nothing
 * starts. Otherwise the delivery is the item.
 */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const req = this.getRequestObject() as unknown as ReceivedRequest;
	const options = this.getNodeParameter('options', {}) as TriggerOptions;

	const verifySignature = this.getNodeParameter('verifySignature', true) as boolean;
	if (verifySignature) {
		const credentials = await this.getCredentials(CREDENTIAL_TYPE);
		const { apiSecret, webhookSecret, previousWebhookSecret } = credentials;
		// A rotation: deliveries signed with the previous secret pass until it is cleared.
		const secrets = [webhookSecret || apiSecret, previousWebhookSecret]
			.map((secret) => String(secret ?? ''))
			.filter((secret) => secret !== '');
		const result = verifyWebhookSignature(
			{
				headers: req.headers,
				rawBody: req.rawBody,
				signedPath: signedPath(req.originalUrl ?? req.url ?? '/', options.publicPath),
			},
			{
				secrets,
				nowMs: Date.now(),
				toleranceSeconds: options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS,
			},
		);
		if (!result.valid) {
			this.logger.warn(
				`Support Ticket Trigger rejected a delivery (${result.reason}): ${result.message}`,
			);
			this.getResponseObject().status(401).json({ error: result.reason, message: result.message });
			return { noWebhookResponse: true };
		}
	}

	const payload = readPayload(req);
	const event = readEventName(payload, options.eventField?.trim() || 'event');
	const selected = [
		...(this.getNodeParameter('events', []) as string[]),
		...parseEventList(options.customEvents),
	];
	if (!isSelectedEvent(event, selected)) {
		return {
			webhookResponse: {
				received: true,
				started: false,
				reason: `event ${event ?? '(none)'} is not selected`,
			},
		};
	}

	if (options.dropDuplicates ?? true) {
		const identity = deliveryIdentity(
			req.headers,
			payload,
			req.rawBody?.length ? req.rawBody : JSON.stringify(payload),
			verifySignature,
		);
		if (
			identity !== undefined &&
			!rememberDelivery(this.getWorkflowStaticData('node'), identity.key)
		) {
			return {
				webhookResponse: {
					received: true,
					started: false,
					reason: `${identity.name} was already received`,
				},
			};
		}
	}

	const json: IDataObject = options.includeHeaders
		? { ...payload, headers: withoutCredentials(req.headers) }
		: payload;
	return {
		workflowData: [this.helpers.returnJsonArray(json)],
		webhookResponse: { received: true, started: true },
	};
}

/**
 * Id plus body digest: some services put the ticket's id on every event of it, so the id
 * alone would drop updates. The unsigned x-event-id header counts only when signatures
 * are not verified (anyone could change it).
 */
function deliveryIdentity(
	headers: RequestHeaders,
	payload: IDataObject,
	body: Buffer | string,
	signatureVerified: boolean,
): { key: string; name: string } | undefined {
	const header = headers[EVENT_ID_HEADER];
	const id =
		typeof payload.id === 'string' || typeof payload.id === 'number'
			? String(payload.id)
			: !signatureVerified && typeof header === 'string' && header !== ''
				? header
				: undefined;
	if (id !== undefined)
		return { key: `${id}#${sha256Hex(body).slice(0, 32)}`, name: `event ${id}` };
	const signature = headers[SIGNATURE_HEADER];
	return signatureVerified && typeof signature === 'string'
		? { key: `sig:${signature.toLowerCase().slice(0, 32)}`, name: 'this signed delivery' }
		: undefined;
}

/**
 * Headers that carry credentials stay out of execution data (it is stored and shown to editors).
 */
const CREDENTIAL_HEADERS = [API_KEY_HEADER, 'authorization', 'proxy-authorization', 'cookie'];

function withoutCredentials(headers: RequestHeaders): IDataObject {
	const kept: IDataObject = {};
	for (const [name, value] of Object.entries(headers)) {
		if (!CREDENTIAL_HEADERS.includes(name.toLowerCase())) kept[name] = value;
	}
	return kept;
}

/** The delivery as JSON, read from the bytes that were verified; other bodies are kept as text. */
function readPayload(req: ReceivedRequest): IDataObject {
	if (req.rawBody && req.rawBody.length > 0) {
		const text = req.rawBody.toString('utf8');
		try {
			const parsed = JSON.parse(text) as unknown;
			if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
				return parsed as IDataObject;
			return { body: parsed as IDataObject[] };
		} catch {
			return { body: text };
		}
	}
	if (req.body && typeof req.body === 'object' && !Array.isArray(req.body))
		return req.body as IDataObject;
	return req.body === undefined ? {} : { body: req.body as string };
}
