import { addNodeTypes } from './extraNodeTypes';
import { Code } from './nodes/Code';
import { If } from './nodes/If';
import { NoOp } from './nodes/NoOp';
import { ScheduleTrigger } from './nodes/ScheduleTrigger';
import { SplitOut } from './nodes/SplitOut';

/**
 * Registers the harness's stand-ins for the n8n-nodes-base nodes that the example workflows use
 * (If, Split Out, No Operation, Code, Schedule Trigger), under n8n's own type names, so the same
 * workflow JSON runs in-process and in a real n8n.
 */
export async function addN8nBaseStandIns(): Promise<void> {
	await addNodeTypes({
		'n8n-nodes-base.if': new If(),
		'n8n-nodes-base.splitOut': new SplitOut(),
		'n8n-nodes-base.noOp': new NoOp(),
		'n8n-nodes-base.code': new Code(),
		'n8n-nodes-base.scheduleTrigger': new ScheduleTrigger(),
	});
}
