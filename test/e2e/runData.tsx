import type { IDataObject } from 'n8n-workflow';

/** The parts of n8n's IRun (what `n8n execute --rawOutput` prints) that the tests read. */
export interface PrintedRun {
	status?: string;
	finished?: boolean;
	data: {
		resultData: {
			lastNodeExecuted?: string;
			error?: { message?: string; description?: string | null };
			/** Per node, its runs; `executionIndex` numbers the node runs of the execution in the order they ran. */
			runData: Record<
				string,
				Array<{
					executionIndex?: number;
					data?: { main?: Array<Array<{ json: IDataObject }> | null> };
					error?: { message?: string };
				}>
			>;
		};
	};
}

export function asRun(value: unknown): PrintedRun {
	const run = value as PrintedRun | undefined;
	if (!run?.data?.resultData?.runData)
		throw new Error(`not an n8n run result: ${JSON.stringify(value)?.slice(0, 300)}`);
	return run;
}

/** Items a node put out on its first output, over all its runs. */
export function nodeOutput(run: PrintedRun, nodeName: string): IDataObject[] {
	const runs = run.data.resultData.runData[nodeName];
	if (!runs)
		throw new Error(
			`node "${nodeName}" did not run (ran: ${Object.keys(run.data.resultData.runData).join(', ')})`,
		);
	return runs.flatMap((taskData) => taskData.data?.main?.[0] ?? []).map((item) => item.json);
}

export function onlyItem(run: PrintedRun, nodeName: string): IDataObject {
	const items = nodeOutput(run, nodeName);
	if (items.length !== 1)
		throw new Error(`node "${nodeName}" put out ${items.length} items, expected 1`);
	return items[0];
}

/** Items a node put out, or none when it did not run (n8n stops a branch that has no items). */
export function nodeOutputIfRan(run: PrintedRun, nodeName: string): IDataObject[] {
	return run.data.resultData.runData[nodeName] ? nodeOutput(run, nodeName) : [];
}
