/**
 * test/e2e/workflows/incremental-import-static-data.json (the incremental import with its watermark
 * in static data; examples/incremental-import.json keeps it in a Data Table and is proven by
 * `npm run test:sync`) feeds the newest created_at it imported back into Created After.
 * A ticket created later within that same millisecond must come with the next run, exactly once,
 * and the ones already imported at that moment must not come again.
 */
import { readFileSync } from 'node:fs';

import { repoPath, runWorkflow, type WorkflowJson } from '../harness';
import { startSandbox, type Sandbox } from '../../sandbox';

let sandbox: Sandbox;
// Frozen service clock (close to real time: requests are signed with the real one).
const frozenAt = Date.now();

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 30, now: () => frozenAt });
});
afterAll(async () => sandbox.stop());

it('incremental-import: a ticket created in the watermark millisecond after a run is imported by the next run exactly once', async () => {
	const workflow: WorkflowJson = { ...(JSON.parse(readFileSync(repoPath('test', 'e2e', 'workflows', 'incremental-import-static-data.json'), 'utf8')) as WorkflowJson), staticData: {} };
	const credentials = { supportTicketApi: { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret } };
	const run = async (): Promise<string[]> => {
		const result = await runWorkflow(workflow, credentials, { mode: 'trigger', nodeName: 'Every Hour' });
		expect(result.error).toBeUndefined();
		return result.run?.data.resultData.runData['Store New Tickets'] ? result.output('Store New Tickets').map((item) => String(item.json.id)) : [];
	};
	const first = sandbox.store.createTicket({ subject: 'At the boundary', description: 'd', customer: { email: 'a@example.com' } });
	expect(await run()).toHaveLength(sandbox.store.ticketCount);
	// Same millisecond as the watermark (the clock is frozen), created after the run.
	const later = sandbox.store.createTicket({ subject: 'Same millisecond, later', description: 'd', customer: { email: 'b@example.com' } });
	expect(later.created_at).toBe(first.created_at);
	expect(await run()).toEqual([later.id]);
	expect(await run()).toEqual([]);
});
