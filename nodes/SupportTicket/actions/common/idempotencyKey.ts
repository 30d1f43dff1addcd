import { createHash, randomUUID } from 'node:crypto';

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ExecutionCreates } from './executionCreates';

// n8n-core's tool caller gives a tool call no id, and an agent's batch may run two calls under one
// run index; each try of a call gets the same input object, so the object stands for the call.
const toolCalls = new WeakMap<IDataObject, string>();
// A node run's index is the same for all its items; n8n builds a whole data proxy to tell it.
const runIndexes = new WeakMap<IExecuteFunctions, number>();

function runIndexOf(ctx: IExecuteFunctions): number {
	let runIndex = runIndexes.get(ctx);
	if (runIndex === undefined) {
		runIndex = Number(ctx.getWorkflowDataProxy(0).$runIndex ?? 0);
		runIndexes.set(ctx, runIndex);
	}
	return runIndex;
}

/**
 * One key per request a user or an agent means, the same on every repeat of it: an item of a
 * node run (Retry On Fail runs it again under the same run index) or a tool call. Unique
 * across instances, workflows and executions.
 */
export function idempotencyKeyFor(
	ctx: IExecuteFunctions,
	itemIndex: number,
	creates: ExecutionCreates,
): string {
	const node = ctx.getNode();
	const input = ctx.getInputData()[itemIndex]?.json ?? {};
	const runIndex = runIndexOf(ctx);
	let request: string;
	if (typeof input.toolCallId === 'string' && input.toolCallId !== '') {
		// n8n's engine runs each tool call as a run of its own;
		// models number calls per conversation only.
		request = `tool call ${input.toolCallId} in run ${runIndex}`;
	} else if (node.type.endsWith('Tool')) {
		if (!toolCalls.has(input)) toolCalls.set(input, randomUUID());
		request = `tool call ${toolCalls.get(input)}`;
	} else {
		const source = ctx.getExecuteData().source?.main?.[0];
		const from = source
			? `${source.previousNode}:${source.previousNodeOutput ?? 0}:${source.previousNodeRun ?? 0}`
			: '';
		request = `run ${runIndex} from ${from} item ${itemIndex}`;
	}
	const where = [
		ctx.getInstanceId(),
		ctx.getWorkflow().id ?? '',
		ctx.getExecutionId() ?? '',
		creates.nonce,
		node.id ?? node.name,
	];
	const hex = createHash('sha256')
		.update([...where, request].join('\n'))
		.digest('hex');
	return (
		`${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-` +
		`${hex.slice(16, 20)}-${hex.slice(20, 32)}`
	);
}
