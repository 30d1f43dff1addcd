import type { IContextObject, IDataObject, IExecuteFunctions } from 'n8n-workflow';

/** A create of this execution not yet answered or found: what it sends, and its request in flight. */
export interface OpenCreate {
	body: IDataObject;
	sending?: Promise<unknown>;
}

/** What the creates of one execution share, in every node and every round of a loop. */
export interface ExecutionClaims {
	/** `noun:id` of each record a create made or found: it belongs to that item, no other takes it. */
	claimed: Set<string>;
	/** The creates still open, by the list their records appear in. */
	open: Map<string, Set<OpenCreate>>;
}

// Keyed by the execution's flow context: one object per execution, in a queue worker too (it runs the whole execution), and freed with it.
const byExecution = new WeakMap<object, ExecutionClaims>();

export function executionClaims(ctx: IExecuteFunctions): ExecutionClaims {
	const key = flowContext(ctx) ?? ctx;
	let claims = byExecution.get(key);
	if (!claims) {
		claims = { claimed: new Set(), open: new Map() };
		byExecution.set(key, claims);
	}
	return claims;
}

/** Undefined without execution data (a partial context): claims then hold for this node run. */
function flowContext(ctx: IExecuteFunctions): IContextObject | undefined {
	try {
		return ctx.getContext('flow');
	} catch {
		return undefined;
	}
}
