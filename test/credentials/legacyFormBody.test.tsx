import type { IDataObject } from 'n8n-workflow';

import { runWorkflow, singleNodeWorkflow, useSandbox } from '../harness';

/**
 * n8n's HTTP Request node (Predefined Credential Type) with Body Content Type "Form Urlencoded"
 * or "Form-Data" hands the credential a legacy request whose body is in `form` / `formData`.
 * The HTTP client sends those bytes, so a signature over an empty body cannot be right: the
 * user must get a clear error before anything is sent, not a 401 "invalid signature".
 */
const { sandbox, credentials } = useSandbox({ seed: 31 });

function request(parameters: IDataObject) {
	return runWorkflow(singleNodeWorkflow('harness.signedRequest', parameters), { supportTicketApi: credentials });
}

describe('legacy request with a form body (HTTP Request node, form content types)', () => {
	it.each(['form', 'formData'])('%s: a clear error that the service takes JSON, and no request sent', async (legacyBodyField) => {
		const run = await request({
			legacy: true,
			legacyBodyField,
			method: 'POST',
			url: '/api/v1/external/customers',
			body: JSON.stringify({ email: 'form@example.com', name: 'Form' }),
		});
		expect(sandbox.log.map((entry) => [entry.status, entry.authError])).toEqual([]);
		expect(run.error?.message).toMatch(/JSON/);
	});
});
