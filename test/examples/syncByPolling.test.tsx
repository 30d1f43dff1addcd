/**
 * examples/sync-by-polling.json: Poll Trigger (Updated Ticket, Emit Existing) → Data Table upsert
 * by ticket_id. In-process there is no Data Table node, so this proves the import and the
 * parameters: the trigger's against the node's own description, run through n8n-core's poll
 * context against the sandbox; the Data Table row's against the table the other sync examples
 * create, and its column expressions against what the trigger emitted. The whole flow in real n8n
 * belongs to `npm run test:sync`.
 */
import { readFileSync } from 'node:fs';

import type { IDataObject, INode, INodeProperties, INodeType } from 'n8n-workflow';

import { createPoller, credentialsFor, loadPackageTypes, repoPath, type WorkflowJson } from '../harness';
import { startSandbox, type Sandbox } from '../sandbox';

const load = (file: string) => JSON.parse(readFileSync(repoPath('examples', file), 'utf8')) as WorkflowJson;
const workflow = load('sync-by-polling.json');
const node = (type: string) => workflow.nodes.find((n) => n.type === type) as INode;
const trigger = node('n8n-nodes-support-ticket.supportTicketPollTrigger');
const named = (name: string) => workflow.nodes.find((n) => n.name === name) as INode;
const upsert = named('Upsert Ticket Row');
const findTables = named('Find Tables');

describe('sync-by-polling example', () => {
	it('imports: the poll trigger feeds Find Tables (once per poll, the upper branch, so it runs first) and the Data Table upsert, and a sticky note explains latency, no public URL and the webhook recipe', () => {
		expect(workflow.connections).toEqual({
			[trigger.name]: {
				main: [
					[
						{ node: findTables.name, type: 'main', index: 0 },
						{ node: upsert.name, type: 'main', index: 0 },
					],
				],
			},
		});
		// n8n's v1 execution order runs branches top to bottom: the table is known before the upsert runs.
		expect(workflow.settings).toMatchObject({ executionOrder: 'v1' });
		expect(findTables.position[1]).toBeLessThan(upsert.position[1]);
		expect(findTables.executeOnce).toBe(true);
		const reference = load('sync-webhooks.json').nodes.find((n) => n.name === 'Find Tables') as INode;
		expect(findTables.parameters).toEqual(reference.parameters);
		const note = String(node('n8n-nodes-base.stickyNote').parameters.content);
		expect(note).toMatch(/No public URL needed/);
		expect(note).toMatch(/Latency = the poll interval/);
		expect(note).toMatch(/sync-webhooks\.json/);
	});

	it("the trigger's parameters are the node's own: names, event and options", async () => {
		const { nodeTypes } = await loadPackageTypes();
		const properties = (nodeTypes.getByNameAndVersion(trigger.type, trigger.typeVersion) as INodeType).description.properties;
		const property = (name: string) => properties.find((p) => p.name === name) as INodeProperties;
		// pollTimes is the property n8n adds to every polling node.
		for (const name of Object.keys(trigger.parameters).filter((n) => n !== 'pollTimes')) expect({ name, known: Boolean(property(name)) }).toEqual({ name, known: true });
		expect((property('event').options as Array<{ value: string }>).map((o) => o.value)).toContain(trigger.parameters.event);
		expect(trigger.parameters.event).toBe('updatedTicket');
		const options = (property('options').options as INodeProperties[]).map((o) => o.name);
		expect(Object.keys(trigger.parameters.options as IDataObject).every((name) => options.includes(name))).toBe(true);
		expect(trigger.parameters.options).toEqual({ emitExisting: true });
	});

	it('the Data Table row is upserted by ticket_id into the table the other sync examples use, with the same columns', () => {
		const reference = load('sync-webhooks.json').nodes.find((n) => n.name === 'Insert New Ticket') as INode;
		expect(upsert.typeVersion).toBe(reference.typeVersion);
		expect(upsert.parameters).toMatchObject({
			resource: 'row',
			operation: 'upsert',
			dataTableId: reference.parameters.dataTableId,
			matchType: 'allConditions',
			filters: { conditions: [{ keyName: 'ticket_id', condition: 'eq', keyValue: '={{ $json.id }}' }] },
		});
		const columns = upsert.parameters.columns as { value: IDataObject; schema: unknown };
		expect(columns.schema).toEqual((reference.parameters.columns as { schema: unknown }).schema);
		expect(Object.keys(columns.value).sort()).toEqual(Object.keys((reference.parameters.columns as { value: IDataObject }).value).sort());
	});

	describe('run: the trigger as the example has it, against the sandbox', () => {
		let sandbox: Sandbox;
		const clock = { ms: Date.parse('2026-11-01T09:00:00.000Z') };
		beforeAll(async () => (sandbox = await startSandbox({ seed: 130, now: () => clock.ms, maxSkewSeconds: 10 ** 9 })));
		afterAll(async () => sandbox.stop());

		it('first poll: every existing ticket (the initial import), then each change once; each emitted ticket maps to a complete row', async () => {
			// Without the Data Table node, which runs only in real n8n.
			const triggerOnly: WorkflowJson = { ...workflow, nodes: [trigger], connections: {} };
			const poller = await createPoller(triggerOnly, { supportTicketApi: credentialsFor(sandbox) }, trigger.name);
			const first = await poller.poll();
			expect(first.execution?.error).toBeUndefined();
			expect(new Set(first.items?.map((item) => item.json.id)).size).toBe(sandbox.store.ticketCount);
			expect((await poller.poll()).items).toBeNull();

			clock.ms += 60_000;
			const changed = sandbox.store.updateTicket(sandbox.store.listTickets({})[50].id, { status: 'solved' });
			const polled = await poller.poll();
			expect(polled.items?.map((item) => [item.json.id, item.json.status])).toEqual([[changed.id, 'solved']]);

			const row = rowFor(polled.items?.[0].json as IDataObject);
			expect(row).toEqual({
				ticket_id: changed.id,
				subject: changed.subject,
				description: changed.description,
				status: 'solved',
				priority: changed.priority,
				customer_id: changed.customer.id,
				created_at: changed.created_at,
				updated_at: changed.updated_at,
				updated_ms: Date.parse(changed.updated_at),
			});
		});
	});
});

/** The Data Table columns as n8n would compute them for one item: each `={{ … }}` over `$json`. */
function rowFor(json: IDataObject): IDataObject {
	const value = (upsert.parameters.columns as { value: Record<string, string> }).value;
	const row: IDataObject = {};
	for (const [column, expression] of Object.entries(value)) {
		const body = /^=\{\{ (.*) \}\}$/.exec(expression)?.[1];
		if (body === undefined) throw new Error(`${column}: ${expression} is not a single expression`);
		row[column] = (new Function('$json', `return ${body};`) as (j: IDataObject) => unknown)(json) as IDataObject[string];
	}
	return row;
}
