import { createHash } from 'node:crypto';

import type { IExecuteFunctions } from 'n8n-workflow';

import type { ExecutionCreates } from './executionCreates';

/**
 * One key per request a user or an agent means, the same on every repeat of it: an item of a node run
 * (Retry On Fail runs it again under the same run index) or a tool call (n8n's engine gives each its
 * `toolCallId`). Unique across instances, workflows and executions.
 */
export function idempotencyKeyFor(
	ctx: IExecuteFunctions,
	itemIndex: number,
	creates: ExecutionCreates,
): string {
	const node = ctx.getNode();
	const input = ctx.getInputData()[itemIndex]?.json ?? {};
	const runIndex = Number(ctx.getWorkflowDataProxy(itemIndex).$runIndex ?? 0);
	let request: string;
	if (typeof input.toolCallId === 'string' && input.toolCallId !== '') {
		request = `tool call ${input.toolCallId}`;
	} else {
		const source = ctx.getExecuteData().source?.main?.[0];
		const from = source
			? `${source.previousNode}:${source.previousNodeOutput ?? 0}:${source.previousNodeRun ?? 0}`
			: '';
		request = `run ${runIndex} from ${from} item ${itemIndex}`;
		// n8n-core's tool caller tries again under the next run index, with the same tool input object.
		const earlier = creates.leftOpen.get(input);
		if (earlier) return earlier;
	}
	const where = [
		ctx.getInstanceId(),
		ctx.getWorkflow().id ?? '',
		ctx.getExecutionId() ?? creates.runId,
		node.id ?? node.name,
	];
	const hex = createHash('sha256')
		.update([...where, request].join('\n'))
		.digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Notes a create left open, so another try on the same input (the tool caller's Retry On Fail) repeats its key. */
export function noteLeftOpen(
	ctx: IExecuteFunctions,
	itemIndex: number,
	creates: ExecutionCreates,
	key: string,
): void {
	const input = ctx.getInputData()[itemIndex]?.json;
	if (input) creates.leftOpen.set(input, key);
}
