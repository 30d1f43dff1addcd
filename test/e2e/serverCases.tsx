import assert from 'node:assert/strict';

import type { ServerContext } from './context';
import { SANDBOX_CREDENTIAL_ID, WRONG_SECRET_CREDENTIAL_ID } from './fixtures';
import type { CredentialImport } from './n8n/cli';
import type { Suite } from './suite';

const credential = (credentials: CredentialImport[], id: string) =>
	credentials.find((c) => c.id === id) ?? assert.fail(`no credential ${id}`);

/** What only `n8n start` does: the editor's credential test (and, with the trigger, webhooks). */
export function addServerCases(suite: Suite, context: () => ServerContext): void {
	suite.test(
		"credential test (the editor's Test button) passes with one signed request",
		async () => {
			const { rest, sandbox, credentials } = context();
			sandbox.clearLog();
			const result = await rest.testCredential(credential(credentials, SANDBOX_CREDENTIAL_ID));
			assert.equal(result.status, 'OK', JSON.stringify(result));
			assert.deepEqual(
				sandbox.log.map((e) => [e.method, e.pathname, e.query, e.status]),
				[['GET', '/api/v1/external/tickets', { per_page: '1' }, 200]],
			);
		},
	);

	suite.test(
		'credential test with a wrong API secret fails, and the service saw a bad signature',
		async () => {
			const { rest, sandbox, credentials } = context();
			sandbox.clearLog();
			const result = await rest.testCredential(credential(credentials, WRONG_SECRET_CREDENTIAL_ID));
			assert.equal(result.status, 'Error', JSON.stringify(result));
			assert.ok(sandbox.log.length >= 1);
			assert.ok(sandbox.log.every((e) => e.status === 401 && e.authError === 'invalid_signature'));
		},
	);
}
