/**
 * Memory of importing every ticket through n8n-core's WorkflowExecute, in four ways built from the
 * shipped examples: one page per execution (the cursor carried from execution to execution), a
 * parent calling a sub-workflow per page, the page loop inside one execution, and Return All. The
 * written tickets are counted in a bitmap (TicketTally) by the "Write Page" step, so counting does
 * not weigh on the memory being measured.
 */
import { readFileSync } from 'node:fs';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeType,
} from 'n8n-workflow';

import {
	loadPackageTypes,
	repoPath,
	runWorkflow,
	useNativeRegexEngine,
	type WorkflowJson,
	type WorkflowRun,
} from '../test/harness';
import { addNodeTypes } from '../test/harness/packageTypes';
import { registerBenchStandIns } from './standIns';
import { type ChildTask, listCalls, measureInChild, type ProcessFigures } from './measure';
import type { SignedTarget } from './sandboxProcess';

export type ImportMode =
	| 'page-per-execution'
	| 'sub-workflow-per-page'
	| 'loop-in-one-execution'
	| 'return-all';
export const IMPORT_MODES: ImportMode[] = [
	'page-per-execution',
	'sub-workflow-per-page',
	'loop-in-one-execution',
	'return-all',
];
export const PAGE_SIZE = 100;
const PAGE_NODE = 'Get Page of Tickets';
const LOOP_NODE = 'More Pages?';
const SUB_TRIGGER = 'When Executed by Another Workflow';
const RETURN_CURSOR = 'Return Cursor';
const CALL_NODE = 'Import One Page';
const RETURN_ALL_NODE = 'Get All Tickets';
type Credentials = Record<string, ICredentialDataDecryptedObject>;

/**
 * Which tickets an import wrote, one bit per ticket (n/8 bytes, allocated before the measurement):
 * every seeded ticket (`tkt_1` … `tkt_<n>`) written exactly once, without holding the tickets.
 */
export class TicketTally {
	private seen: Uint8Array;
	private figures = { written: 0, distinct: 0, duplicates: 0, unknown: 0 };

	constructor(readonly tickets: number) {
		this.seen = new Uint8Array(Math.ceil((tickets + 1) / 8));
	}

	add(id: unknown): void {
		const f = this.figures;
		f.written++;
		const seq =
			typeof id === 'string'
				? Number(/^tkt_([1-9][0-9]*)$/.exec(id)?.[1] ?? Number.NaN)
				: Number.NaN;
		if (!(seq <= this.tickets)) f.unknown++;
		else if (this.seen[seq >> 3] & (1 << (seq & 7))) f.duplicates++;
		else {
			this.seen[seq >> 3] |= 1 << (seq & 7);
			f.distinct++;
		}
	}

	read(): { written: number; distinct: number; duplicates: number; unknown: number } {
		return { ...this.figures };
	}

	reset(): void {
		this.seen.fill(0);
		this.figures = { written: 0, distinct: 0, duplicates: 0, unknown: 0 };
	}
}

const example = (file: string): WorkflowJson =>
	JSON.parse(readFileSync(repoPath(file), 'utf8')) as WorkflowJson;
const to = (node: string) => [{ node, type: 'main' as const, index: 0 }];

/** test/e2e/workflows/import-page-by-page.json and its nodes; throws when it changed shape. */
function pageByPage() {
	const shipped = example('test/e2e/workflows/import-page-by-page.json');
	const [manual, page, loop, write] = [
		'n8n-nodes-base.manualTrigger',
		PAGE_NODE,
		LOOP_NODE,
		'Write Page',
	].map((key) => shipped.nodes.find((n) => n.type === key || n.name === key));
	if (!manual || !page || !loop || !write)
		throw new Error('import-page-by-page.json changed shape');
	return { shipped, manual, page, loop, write };
}

/**
 * One page per execution: the example's Get Page → Split Out → Write Page, started by an Execute
 * Workflow Trigger that receives `{ next_cursor }` instead of looping back through the If node, and
 * ending with a Code node that returns only `{ has_more, next_cursor }` (n8n hands the caller the
 * last node's output: ending with Write Page would make the parent keep every ticket).
 */
function pagePerExecution(): WorkflowJson {
	const { shipped, manual, write } = pageByPage();
	const trigger: INode = {
		...manual,
		name: SUB_TRIGGER,
		type: 'n8n-nodes-base.executeWorkflowTrigger',
		typeVersion: 1.1,
		parameters: { inputSource: 'passthrough' },
	};
	const jsCode = `const page = $('${PAGE_NODE}').first().json;\nreturn [{ has_more: page.has_more, next_cursor: page.next_cursor }];`;
	const returnCursor: INode = {
		id: 'bench-return-cursor',
		name: RETURN_CURSOR,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [write.position[0] + 240, write.position[1]],
		parameters: { jsCode },
	};
	const connections = {
		...shipped.connections,
		[SUB_TRIGGER]: shipped.connections[manual.name],
		[write.name]: { main: [to(RETURN_CURSOR)] },
	};
	delete connections[manual.name];
	delete connections[LOOP_NODE];
	connections[PAGE_NODE] = {
		main: [connections[PAGE_NODE].main[0]?.filter((c) => c.node !== LOOP_NODE) ?? []],
	};
	return {
		...shipped,
		nodes: [
			trigger,
			...shipped.nodes.filter((n) => n !== manual && n.name !== LOOP_NODE),
			returnCursor,
		],
		connections,
	};
}

/** The parent: the example's trigger and If loop, the page nodes replaced by one Execute Workflow node that runs pagePerExecution per page. */
function subWorkflowParent(): WorkflowJson {
	const { shipped, manual, page, loop } = pageByPage();
	const call: INode = {
		id: 'bench-import-one-page',
		name: CALL_NODE,
		type: 'n8n-nodes-base.executeWorkflow',
		typeVersion: 1.2,
		position: page.position,
		parameters: { source: 'database' },
	};
	return {
		...shipped,
		nodes: [manual, call, loop],
		connections: {
			[manual.name]: { main: [to(CALL_NODE)] },
			[CALL_NODE]: { main: [to(LOOP_NODE)] },
			[LOOP_NODE]: { main: [to(CALL_NODE), []] },
		},
	};
}

/** examples/import-all-tickets.json (Return All), with the same Write step after it. */
function returnAll(): WorkflowJson {
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
		connections: { ...shipped.connections, [RETURN_ALL_NODE]: { main: [to(write.name)] } },
	};
}

/**
 * Built on the bench's No Operation stand-in (baseNodeStandIns.tsx): "Write Page" passes items on as No Operation does and
 * ticks each ticket off in `tally`; the sub-workflow's trigger passes its input on as n8n's does; the
 * Execute Workflow node runs the one-page sub-workflow as a separate execution in this process (as
 * n8n does outside queue mode) and returns its last node's output, dropping the sub-execution's data.
 */
export async function registerImportNodes(
	tally: TicketTally,
	credentials: Credentials,
): Promise<void> {
	await registerBenchStandIns();
	const noOp = (await loadPackageTypes()).nodeTypes.getByName('n8n-nodes-base.noOp') as INodeType;
	const subWorkflow = pagePerExecution();
	const executeWorkflow: INodeType = {
		description: {
			...noOp.description,
			displayName: 'Execute Workflow',
			name: 'executeWorkflow',
			version: [1, 1.1, 1.2],
		},
		async execute(this: IExecuteFunctions) {
			const sub = await runWorkflow(subWorkflow, credentials, {
				mode: 'integrated',
				nodeName: SUB_TRIGGER,
				data: [this.getInputData()],
			});
			if (sub.error) throw new Error(`sub-workflow failed: ${sub.error.message}`);
			const last = sub.run?.data.resultData.lastNodeExecuted;
			if (!last) throw new Error('the sub-workflow ran no node');
			return [sub.output(last).map((item) => ({ json: item.json, pairedItem: { item: 0 } }))];
		},
	};
	const writer: INodeType = {
		description: noOp.description,
		async execute(this: IExecuteFunctions) {
			const items = this.getInputData();
			for (const item of items) tally.add(item.json.id);
			return [items];
		},
	};
	await addNodeTypes({
		'n8n-nodes-base.noOp': writer,
		'n8n-nodes-base.executeWorkflowTrigger': noOp,
		'n8n-nodes-base.executeWorkflow': executeWorkflow,
	});
}

/**
 * `executions` started (a sub-workflow's count too); `nodeRuns` of the node that reads the tickets (one per page,
 * 1 for Return All); `last` execution, still held as n8n holds an execution's data until it has been saved.
 */
type ImportOutcome = { executions: number; nodeRuns: number; last: WorkflowRun; finished: boolean };

/** Page per execution: each execution's cursor starts the next, until the last page or `maxExecutions`; each execution's data is dropped once its cursor was read. */
export async function runPages(
	credentials: Credentials,
	maxExecutions: number,
): Promise<ImportOutcome> {
	const workflow = pagePerExecution();
	let cursor: IDataObject = {};
	for (let executions = 1; ; executions++) {
		const last = await runWorkflow(workflow, credentials, {
			mode: 'integrated',
			nodeName: SUB_TRIGGER,
			data: [[{ json: cursor }]],
		});
		if (last.error) throw new Error(`workflow failed: ${last.error.message}`);
		const page = last.output(RETURN_CURSOR)[0]?.json;
		if (!page) throw new Error(`execution ${executions} returned no cursor`);
		const finished = page.has_more !== true;
		if (finished || executions >= maxExecutions)
			return { executions, nodeRuns: executions, last, finished };
		cursor = { next_cursor: String(page.next_cursor) };
	}
}

export async function importTickets(
	mode: ImportMode,
	credentials: Credentials,
	tickets: number,
): Promise<ImportOutcome> {
	if (mode === 'page-per-execution') {
		// A service that still has more after ⌈n/100⌉ + 2 pages is an error, not a loop.
		const outcome = await runPages(credentials, Math.ceil(tickets / PAGE_SIZE) + 2);
		if (!outcome.finished)
			throw new Error(`still more pages after ${outcome.executions} executions`);
		return outcome;
	}
	const [workflow, pageNode] = (
		{
			'sub-workflow-per-page': [subWorkflowParent, CALL_NODE],
			'loop-in-one-execution': [() => pageByPage().shipped, PAGE_NODE],
			'return-all': [returnAll, RETURN_ALL_NODE],
		} as const
	)[mode];
	const last = await runWorkflow(workflow(), credentials);
	if (last.error) throw new Error(`workflow failed: ${last.error.message}`);
	const nodeRuns = (last.run?.data.resultData.runData[pageNode] ?? []).length;
	return {
		executions: mode === 'sub-workflow-per-page' ? 1 + nodeRuns : 1,
		nodeRuns,
		last,
		finished: true,
	};
}

/** `heapCapMiB`: `--max-old-space-size` of the child; undefined: V8's default. */
type ImportJob = { mode: ImportMode; heapCapMiB?: number; tickets: number; target: SignedTarget };
type ImportFigures = ReturnType<TicketTally['read']> & {
	mode: ImportMode;
	heapCapMiB?: number;
	tickets: number;
	executions: number;
	nodeRuns: number;
	runDataBytes: number;
};

/** Child side: 20 one-page executions to warm up (the JIT settles, too few tickets to move the peak), then the whole import. */
export function importTask(job: ImportJob): ChildTask<ImportFigures> {
	const credentials = { supportTicketApi: { ...job.target } };
	const tally = new TicketTally(job.tickets);
	return {
		async warmUp() {
			useNativeRegexEngine(); // as n8n's server does: no vm timeout firing on a busy machine
			await registerImportNodes(tally, credentials);
			await runPages(credentials, 20);
			tally.reset();
		},
		async run() {
			const { executions, nodeRuns, last } = await importTickets(
				job.mode,
				credentials,
				job.tickets,
			);
			return () => {
				// The last execution's run data as JSON, each node run on its own (about what n8n saves), after the peak was read: the JSON makes garbage of its own.
				let runDataBytes = 0;
				for (const runs of Object.values(last.run?.data.resultData.runData ?? {}))
					for (const task of runs) runDataBytes += Buffer.byteLength(JSON.stringify(task));
				return {
					mode: job.mode,
					heapCapMiB: job.heapCapMiB,
					tickets: job.tickets,
					...tally.read(),
					executions,
					nodeRuns,
					runDataBytes,
				};
			};
		},
	};
}

/** From the sandbox log: `calls` = GET /tickets answered 200, `requests` = every API request. */
export type ImportMeasurement = ProcessFigures &
	ImportFigures & { calls: number; requests: number };

export async function measureImport(job: ImportJob): Promise<ImportMeasurement> {
	const execArgv = job.heapCapMiB === undefined ? [] : [`--max-old-space-size=${job.heapCapMiB}`];
	const { log, ...figures } = await measureInChild<ImportFigures>('import', job, {
		label: `${job.mode} of ${job.tickets} tickets`,
		execArgv,
		timeoutMs: 480_000,
	});
	return { ...figures, calls: listCalls(log), requests: log.length };
}

/** What every import must do: write each seeded ticket exactly once, in ⌈n/100⌉ list calls and the expected executions. */
export function correctnessFailures(m: ImportMeasurement): string[] {
	const pages = Math.ceil(m.tickets / PAGE_SIZE);
	const what = `${m.mode}${m.heapCapMiB === undefined ? '' : ` (--max-old-space-size=${m.heapCapMiB})`} ${m.tickets}`;
	const executions = {
		'page-per-execution': pages,
		'sub-workflow-per-page': pages + 1,
		'loop-in-one-execution': 1,
		'return-all': 1,
	}[m.mode];
	const nodeRuns = m.mode === 'return-all' ? 1 : pages;
	return [
		m.written !== m.tickets || m.distinct !== m.tickets
			? `${what}: wrote ${m.written} items, ${m.distinct} distinct tickets, expected ${m.tickets}`
			: '',
		m.duplicates !== 0 || m.unknown !== 0
			? `${what}: ${m.duplicates} duplicates, ${m.unknown} unknown ids`
			: '',
		m.calls !== pages || m.requests !== pages
			? `${what}: ${m.calls} list calls (${m.requests} requests), expected ${pages}`
			: '',
		m.executions !== executions
			? `${what}: ${m.executions} executions, expected ${executions}`
			: '',
		m.nodeRuns !== nodeRuns
			? `${what}: the node reading tickets ran ${m.nodeRuns} times, expected ${nodeRuns}`
			: '',
	].filter(Boolean);
}
