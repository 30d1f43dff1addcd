import { testCredential, useSandbox } from '../harness';

/**
 * Base URLs that parse as addresses but cannot work: the API path already in them (the field
 * says "without /api/v1/external"; it would be doubled), or a query or fragment (the API path
 * would land inside it, so requests go to the service's root). The credential Test must say so
 * before sending anything, not report a 404 or an answer from the wrong address.
 */
const { sandbox, credentials } = useSandbox({ seed: 32 });

it.each([
	['with the API path', '/api/v1/external', /api\/v1\/external/],
	['with the API path and a slash', '/api/v1/external/', /api\/v1\/external/],
	['with a query', '/?tenant=1', /query|\?/],
	['with a fragment', '#main', /fragment|#/],
])('a Base URL %s is refused with a message, before any request', async (_name, suffix, message) => {
	const result = await testCredential('supportTicketApi', { ...credentials, baseUrl: `${sandbox.baseUrl}${suffix}` });
	expect(result.status).toBe('Error');
	expect(result.message).toMatch(message);
	expect(result.message).toMatch(/Base URL/);
	expect(sandbox.log).toEqual([]);
});
