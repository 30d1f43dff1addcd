import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { WebhookContext } from 'n8n-core';
import {
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INode,
	type IWebhookData,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { activeWorkflow, StoredStaticData } from './activeWorkflow';
import { additionalData } from './additionalData';
import { CredentialsHelper } from './CredentialsHelper';
import { loadPackageTypes } from './packageTypes';
import { runWorkflow, type WorkflowJson, type WorkflowRun } from './runWorkflow';

export interface ReceivedDelivery {
	path: string;
	status: number;
	/** The answer's body as sent. */
	body: string;
}

export interface WebhookReceiver {
	/** Production URL of the trigger: `http://127.0.0.1:<port>/webhook/<webhookId>/<path>`. */
	url: string;
	deliveries: ReceivedDelivery[];
	/** Executions started, in order. */
	executions: WorkflowRun[];
	/** The workflow's static data as n8n would have saved it. */
	staticData: IDataObject;
	/** The next `count` deliveries each load the static data before any goes on (n8n 2.41.1: per request, last save wins). */
	together(count: number): void;
	/** Resolves once every delivery received so far has been answered and its run finished. */
	idle(): Promise<void>;
	stop(): Promise<void>;
}

interface ExpressLikeResponse extends http.ServerResponse {
	status(code: number): ExpressLikeResponse;
	json(body: unknown): ExpressLikeResponse;
	send(body: unknown): ExpressLikeResponse;
}

// n8n's webhook server for an active workflow: the raw body, the trigger's `webhook()` through WebhookContext, n8n's
// answer, then the workflow run with the items; static data saved when marked changed.
export async function startWebhookReceiver(
	workflowJson: WorkflowJson,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	triggerName: string,
): Promise<WebhookReceiver> {
	const { nodeTypes, credentialTypes } = await loadPackageTypes();
	const trigger = workflowJson.nodes.find((node) => node.name === triggerName);
	if (!trigger) throw new Error(`No node named ${triggerName}`);
	const nodeType = nodeTypes.getByNameAndVersion(trigger.type, trigger.typeVersion);
	const description = nodeType.description.webhooks?.[0];
	if (!nodeType.webhook || !description) throw new Error(`${trigger.type} is not a webhook node`);
	const onReceivedData = description.responseData;
	const webhookId = trigger.webhookId ?? 'harness-webhook';
	const webhookPath = `/webhook/${webhookId}/${String(description.path)}`;

	const stored = new StoredStaticData(workflowJson.staticData);
	const deliveries: ReceivedDelivery[] = [];
	const executions: WorkflowRun[] = [];
	const pending = new Set<Promise<void>>();
	let gate: { waiting: number; opened: Promise<void>; open: () => void } | undefined;

	const server = http.createServer((incoming, outgoing) => {
		const task = handle(incoming, outgoing as ExpressLikeResponse).catch((error: unknown) => {
			if (!outgoing.headersSent) outgoing.writeHead(500).end(String(error));
		});
		pending.add(task);
		void task.finally(() => pending.delete(task));
	});

	async function handle(incoming: http.IncomingMessage, res: ExpressLikeResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of incoming) chunks.push(chunk as Buffer);
		const rawBody = Buffer.concat(chunks);
		const url = incoming.url ?? '/';
		const record: ReceivedDelivery = { path: url, status: 0, body: '' };
		deliveries.push(record);
		expressLike(res, record);
		if (url.split('?')[0] !== webhookPath || incoming.method !== 'POST') {
			res.status(404).json({ message: 'The requested webhook is not registered' });
			return;
		}
		const contentType = String(incoming.headers['content-type'] ?? '');
		let body: unknown = {};
		if (contentType.includes('json') && rawBody.length > 0) {
			try {
				body = JSON.parse(rawBody.toString('utf8')) as unknown;
			} catch {
				res.status(400).json({ message: 'Invalid JSON' });
				return;
			}
		}
		const req = Object.assign(incoming, {
			rawBody,
			body,
			originalUrl: url,
			query: Object.fromEntries(new URL(url, 'http://127.0.0.1').searchParams),
			params: {},
		});

		const staticData = stored.load();
		if (gate) {
			const held = gate;
			if (--held.waiting === 0) {
				gate = undefined;
				held.open();
			}
			await held.opened;
		}
		const workflow = activeWorkflow(workflowJson, nodeTypes, staticData);
		const node = workflow.getNode(triggerName) as INode;
		const data = additionalData(new CredentialsHelper(credentialTypes, credentials), {
			httpRequest: req as never,
			httpResponse: res as never,
		});
		const webhookData = {
			httpMethod: 'POST',
			node: triggerName,
			path: webhookPath,
			webhookDescription: description,
			workflowId: 'harness',
			workflowExecuteAdditionalData: data,
			webhookId,
		} as IWebhookData;
		const context = new WebhookContext(workflow, node, data, 'webhook', webhookData, [], null);
		let result: IWebhookResponseData;
		try {
			result = await nodeType.webhook!.call(context);
		} catch (error) {
			// n8n answers 500 and records a failed execution.
			res.status(500).json({ message: (error as Error).message });
			return;
		}
		if (!result.noWebhookResponse) {
			if (result.workflowData === undefined) {
				res.status(200).json(result.webhookResponse ?? { message: 'Webhook call received' });
			} else {
				// n8n's extractWebhookOnReceivedResponse: the description's responseData (default the
				// text "firstEntryJson"), else the node's webhookResponse, else "Workflow was started".
				const responseData = onReceivedData === undefined ? 'firstEntryJson' : onReceivedData;
				if (responseData === 'noData') res.status(200).end();
				else if (responseData) res.status(200).send(responseData);
				else res.status(200).json(result.webhookResponse ?? { message: 'Workflow was started' });
			}
		}
		// n8n's live webhooks save the static data when the response is sent, before the run.
		stored.saveIfChanged(staticData);
		if (result.workflowData !== undefined) {
			const run = await runWorkflow({ ...workflowJson, staticData: stored.load() }, credentials, {
				mode: 'webhook',
				nodeName: triggerName,
				data: result.workflowData,
			});
			executions.push(run);
		}
	}

	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${webhookPath}`,
		deliveries,
		executions,
		get staticData() {
			return stored.current;
		},
		together(count: number) {
			let open = () => {};
			const opened = new Promise<void>((resolve) => (open = resolve));
			gate = { waiting: count, opened, open };
		},
		async idle() {
			while (pending.size > 0) await Promise.allSettled([...pending]);
		},
		async stop() {
			while (pending.size > 0) await Promise.allSettled([...pending]);
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

function expressLike(res: ExpressLikeResponse, record: ReceivedDelivery): void {
	res.status = (code: number) => {
		res.statusCode = code;
		return res;
	};
	res.send = (body: unknown) => {
		const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
		record.status = res.statusCode;
		record.body = String(text);
		res.end(text);
		return res;
	};
	res.json = (body: unknown) => {
		res.setHeader('content-type', 'application/json');
		return res.send(JSON.stringify(body));
	};
}
