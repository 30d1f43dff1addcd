/**
 * The three ways of importing every ticket that the memory measurement compares, all built from
 * the shipped examples so the figures are about the workflows users get.
 */
import { readFileSync } from 'node:fs';

import type { INode } from 'n8n-workflow';

import { repoPath, type WorkflowJson } from '../test/harness';

export type ImportMode = 'page-per-execution' | 'sub-workflow-per-page' | 'loop-in-one-execution' | 'return-all';

export const PAGE_NODE = 'Get Page of Tickets';
export const LOOP_NODE = 'More Pages?';
export const SUB_WORKFLOW_TRIGGER = 'When Executed by Another Workflow';
export const RETURN_CURSOR_NODE = 'Return Cursor';
export const CALL_NODE = 'Import One Page';
export const RETURN_ALL_NODE = 'Get All Tickets';

function example(file: string): WorkflowJson {
	return JSON.parse(readFileSync(repoPath(...file.split('/')), 'utf8')) as WorkflowJson;
}

/** test/e2e/workflows/import-page-by-page.json (the loop once shipped as an example): the If node loops back, all inside one execution. */
export function loopInOneExecution(): WorkflowJson {
	return example('test/e2e/workflows/import-page-by-page.json');
}

/**
 * One page per execution: the same example's Get Page → Split Out → Write Page, started by a
 * sub-workflow trigger that receives `{ next_cursor }` (nothing for the first page) instead of
 * looping back through the If node, and ending with a Code node that returns only
 * `{ has_more, next_cursor }`. This is the sub-workflow a parent calls once per page, and what
 * a scheduled run that resumes from a saved cursor executes; the cursor expression
 * `{{ $json.next_cursor ?? '' }}` is the example's own. (n8n hands the caller the output of the
 * sub-workflow's last node: ending with Write Page would hand back, and make the parent keep,
 * every ticket.)
 */
export function pagePerExecution(): WorkflowJson {
	const shipped = example('test/e2e/workflows/import-page-by-page.json');
	const manual = shipped.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	const write = shipped.nodes.find((node) => node.name === 'Write Page');
	if (!manual || !write || !shipped.nodes.some((node) => node.name === LOOP_NODE)) throw new Error('import-page-by-page.json changed shape');
	const trigger: INode = {
		...manual,
		name: SUB_WORKFLOW_TRIGGER,
		type: 'n8n-nodes-base.executeWorkflowTrigger',
		typeVersion: 1.1,
		parameters: { inputSource: 'passthrough' },
	};
	const returnCursor: INode = {
		id: 'bench-return-cursor',
		name: RETURN_CURSOR_NODE,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [write.position[0] + 240, write.position[1]],
		parameters: {
			jsCode: `const page = $('${PAGE_NODE}').first().json;\nreturn [{ has_more: page.has_more, next_cursor: page.next_cursor }];`,
		},
	};
	const connections = { ...shipped.connections };
	connections[SUB_WORKFLOW_TRIGGER] = connections[manual.name];
	delete connections[manual.name];
	delete connections[LOOP_NODE];
	connections[PAGE_NODE] = { main: [connections[PAGE_NODE].main[0]?.filter((c) => c.node !== LOOP_NODE) ?? []] };
	connections[write.name] = { main: [[{ node: RETURN_CURSOR_NODE, type: 'main', index: 0 }]] };
	return {
		...shipped,
		name: 'Support Ticket: import one page (sub-workflow)',
		nodes: [trigger, ...shipped.nodes.filter((node) => node !== manual && node.name !== LOOP_NODE), returnCursor],
		connections,
	};
}

/**
 * The parent of pagePerExecution: the shipped example's trigger and If loop, with the page
 * nodes replaced by one Execute Workflow node that runs the sub-workflow for each page. The
 * loop stays inside one execution, but each turn keeps only the cursor, not the page.
 */
export function subWorkflowParent(): WorkflowJson {
	const shipped = example('test/e2e/workflows/import-page-by-page.json');
	const manual = shipped.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	const page = shipped.nodes.find((node) => node.name === PAGE_NODE);
	const loop = shipped.nodes.find((node) => node.name === LOOP_NODE);
	if (!manual || !page || !loop) throw new Error('import-page-by-page.json changed shape');
	const call: INode = {
		id: 'bench-import-one-page',
		name: CALL_NODE,
		type: 'n8n-nodes-base.executeWorkflow',
		typeVersion: 1.2,
		position: page.position,
		parameters: { source: 'database' },
	};
	const to = (node: string) => [{ node, type: 'main' as const, index: 0 }];
	return {
		...shipped,
		name: 'Support Ticket: import page by page (parent)',
		nodes: [manual, call, loop],
		connections: {
			[manual.name]: { main: [to(CALL_NODE)] },
			[CALL_NODE]: { main: [to(LOOP_NODE)] },
			[LOOP_NODE]: { main: [to(CALL_NODE), []] },
		},
	};
}

/** examples/import-all-tickets.json (Return All), with the same Write step after it as the page examples. */
export function returnAll(): WorkflowJson {
	const shipped = example('examples/import-all-tickets.json');
	const source = shipped.nodes.find((node) => node.name === RETURN_ALL_NODE);
	if (!source) throw new Error('import-all-tickets.json changed shape');
	const write: INode = {
		id: 'bench-write-tickets',
		name: 'Write Tickets',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [source.position[0] + 240, source.position[1]],
		parameters: {},
	};
	return {
		...shipped,
		nodes: [...shipped.nodes, write],
		connections: { ...shipped.connections, [RETURN_ALL_NODE]: { main: [[{ node: write.name, type: 'main', index: 0 }]] } },
	};
}
