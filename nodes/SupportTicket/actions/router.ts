import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { readServiceBaseUrl, type RunShared } from '../../shared/transport/apiRequest';
import { toNodeError } from '../../shared/transport/toNodeError';
import { isWholeNumber, readNumber } from '../../shared/parameters/number';
import { readTimeout } from '../../shared/transport/timeout';
import { RequestLimiter } from '../../shared/transport/concurrency';
import { RunActivity } from '../../shared/transport/runActivity';
import { DEFAULT_CONCURRENT_REQUESTS, MAX_CONCURRENT_REQUESTS } from './common/descriptions';
import { errorItemFields } from './common/errorItem';
import { resources } from './resources';

type Operation = (
	this: IExecuteFunctions,
	itemIndex: number,
	shared: RunShared,
) => Promise<IDataObject[]>;

/** Each operation says whether its items may run concurrently (Options → Concurrent Requests). */
const operations: Record<
	string,
	Record<string, { execute: Operation; concurrent: boolean }>
> = Object.fromEntries(
	Object.entries(resources).map(([name, resource]) => [name, resource.operations]),
);

/**
 * The node's one item loop: pairing and Continue On Fail live here, once. Items run
 * concurrently but output keeps input order, and a failure ends the run as a
 * one-by-one loop would (lowest failed item).
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = operations[resource]?.[operation];
	if (!handler) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" is not known for "${resource}"`,
			{ itemIndex: 0 },
		);
	}
	const concurrency = handler.concurrent ? readConcurrency(this, items.length) : 1;
	const limiter = concurrency > 1 ? new RequestLimiter(concurrency) : undefined;
	const activity = new RunActivity();
	// Read once (n8n decrypts the credential on every read); a wrong Base URL fails every item alike.
	let baseURL: Promise<string> | undefined;
	const outputs: INodeExecutionData[][] = new Array<INodeExecutionData[]>(items.length);
	// The lowest failed item (without Continue On Fail); Infinity while none failed.
	let failedIndex = Number.POSITIVE_INFINITY;
	let failedError: unknown;
	let next = 0;

	const processItem = async (itemIndex: number): Promise<INodeExecutionData[]> => {
		const timeoutMs = readTimeout(this, itemIndex);
		baseURL ??= readServiceBaseUrl.call(this, itemIndex);
		const results = await handler.execute.call(this, itemIndex, {
			limiter,
			baseURL: await baseURL,
			timeoutMs,
			activity,
		});
		// One pairedItem per input item, as n8n's constructExecutionMetaData does: Return All of
		// 100,000 allocates 100,000 fewer objects.
		const pairedItem = { item: itemIndex };
		return results.map((json) => ({ json, pairedItem }));
	};

	const worker = async (): Promise<void> => {
		while (next < items.length && failedIndex === Number.POSITIVE_INFINITY) {
			const itemIndex = next++;
			try {
				outputs[itemIndex] = await processItem(itemIndex);
			} catch (error) {
				if (this.continueOnFail()) {
					const { message, description } = error as { message: string; description?: string };
					const json = {
						error: message,
						...(description ? { description } : {}),
						...errorItemFields(error),
					};
					outputs[itemIndex] = [{ json, pairedItem: { item: itemIndex } }];
				} else if (itemIndex < failedIndex) {
					failedIndex = itemIndex;
					failedError = error;
				}
			}
		}
	};

	await Promise.all(Array.from({ length: concurrency }, worker));
	if (failedIndex !== Number.POSITIVE_INFINITY)
		throw toNodeError(this.getNode(), failedError, failedIndex);
	// Under the output in the editor; the log lines stay for queue-mode operators.
	const hints = activity.hints();
	if (hints.length > 0) this.addExecutionHints(...hints);
	// One input item (a Get Many): its output as it is, not copied.
	return [outputs.length === 1 ? outputs[0] : outputs.flat()];
}

/** Read once per run, from the first item: how many workers share the items. */
function readConcurrency(ctx: IExecuteFunctions, itemCount: number): number {
	if (itemCount <= 1) return 1;
	const value = readNumber(ctx, 'options.concurrentRequests', 0, DEFAULT_CONCURRENT_REQUESTS);
	if (!isWholeNumber(value, 1, MAX_CONCURRENT_REQUESTS)) {
		const range = `from 1 to ${MAX_CONCURRENT_REQUESTS.toLocaleString('en')}`;
		throw new NodeOperationError(
			ctx.getNode(),
			`Concurrent Requests must be a whole number ${range}, not ${JSON.stringify(value)}`,
			{
				description:
					'Set Options → Concurrent Requests to e.g. 8, or 1 to send one item after another.',
				itemIndex: 0,
			},
		);
	}
	return Math.min(value, itemCount);
}
