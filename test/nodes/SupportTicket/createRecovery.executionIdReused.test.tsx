import { Container } from '@n8n/di';
import { InstanceSettings } from 'n8n-core';

import { credentialsFor, runWorkflow, useSandbox } from '../../harness';
import { load } from '../../examples/postgresExamples';

// Review: the key is hash(instance id, workflow id, execution id, node id, request). n8n's instance id is derived from the
// encryption key (n8n-core InstanceSettings.generateInstanceId, seeded into the database in 2.x): restoring a database
// backup keeps the encryption key, the instance id and the workflow ids, and execution ids continue from the backup's
// sequence, so the next executions reuse ids already used since the backup; a staging copy restored from production's
// backup (same encryption key, needed to read its credentials) numbers its executions from the same point.
// The docs say "so two instances or a reset database never share one".

describe('the same instance id and workflow id, an execution id used again (a database backup restored)', () => {
	const { sandbox } = useSandbox({ seed: 36, idempotencyKeys: true });
	const settings = Container.get(InstanceSettings);
	const ownId = settings.instanceId;
	afterEach(() => (settings.instanceId = ownId));

	it('each execution creates its own ticket', async () => {
		settings.instanceId = 'derived-from-the-same-encryption-key';
		const example = load('create-reply-update.json');
		const credentials = { supportTicketApi: credentialsFor(sandbox) };
		const before = sandbox.store.listTickets().length;
		// Execution 41 ran after the backup was taken (its sequence stood at 40); after the restore the next execution is 41 again.
		for (let run = 0; run < 2; run++) {
			const result = await runWorkflow(example, credentials, { executionId: '41' });
			expect(result.error).toBeUndefined();
		}
		expect(sandbox.store.listTickets()).toHaveLength(before + 2);
	});
});
