import { randomUUID } from 'node:crypto';

import type { IContextObject, IDataObject, IExecuteFunctions } from 'n8n-workflow';

/**
 * One Idempotency-Key's request: what it sends, its send in
 * flight, and the record it made once known.
 */
export interface KeyedCreate {
	/** The list its record appears in. */
	listPath: string;
	/**
	 * The body as it first went on the wire: every repeat under
	 * this key sends it again (dropped once made).
	 */
	body: IDataObject;
	/** When it was first sent, on this machine's clock. */
	sentAt: number;
	sending?: Promise<unknown>;
	record?: IDataObject;
	/** The service answered success with a body the node could not read: made, never sent again. */
	madeUnread?: boolean;
}

/** What the creates of one execution share, in every node, every round of a loop and every try. */
export interface ExecutionCreates {
	/**
	 * `noun:id` of each record a create made or found: it belongs to that create, no other takes it.
	 */
	claimed: Set<string>;
	/**
	 * Each key sent and not refused outright: a later try (Retry
	 * On Fail) returns its record or repeats it.
	 */
	byKey: Map<string, KeyedCreate>;
	/** Random, per execution: execution ids repeat after a database is restored from a backup. */
	nonce: string;
}

// Beside the execution's flow context, not in it (n8n saves that): sends in flight
// and what each key made, for Retry On Fail.
const createsByExecution = new WeakMap<object, ExecutionCreates>();

export function executionCreates(ctx: IExecuteFunctions): ExecutionCreates {
	const flow = flowContext(ctx);
	// One entry per execution, in a queue worker too (it runs
	// the whole execution), and freed with it.
	const key = flow ?? ctx;
	let creates = createsByExecution.get(key);
	if (!creates) {
		// Saved with the execution, so a try resumed elsewhere (queue mode) keeps its keys.
		if (flow) flow.supportTicketNonce ??= randomUUID();
		const nonce =
			typeof flow?.supportTicketNonce === 'string' ? flow.supportTicketNonce : randomUUID();
		creates = { claimed: new Set(), byKey: new Map(), nonce };
		createsByExecution.set(key, creates);
	}
	return creates;
}

/** The other creates of this list whose record is not known: a record may be theirs. */
export function unresolvedCreates(
	creates: ExecutionCreates,
	listPath: string,
	except: KeyedCreate,
): KeyedCreate[] {
	return [...creates.byKey.values()].filter(
		(create) => create !== except && create.listPath === listPath && !create.record,
	);
}

/**
 * Undefined without execution data (a partial context): the record then holds for this node run.
 */
function flowContext(ctx: IExecuteFunctions): IContextObject | undefined {
	try {
		return ctx.getContext('flow');
	} catch {
		return undefined;
	}
}
