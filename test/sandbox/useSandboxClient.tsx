import { startedInBeforeAll, useSandbox } from '../harness/useSandbox';
import type { Sandbox, SandboxOptions } from '../../sandbox/server';
import { TestClient } from './testClient';

/** `useSandbox` (test/harness) and a client signing with its key on its clock (`options.now`). */
export function useSandboxClient(options: SandboxOptions = {}): {
	sandbox: Sandbox;
	client: TestClient;
} {
	const { sandbox } = useSandbox(options);
	let client: TestClient | undefined;
	beforeAll(
		() =>
			(client = new TestClient(sandbox.baseUrl, sandbox.apiKey, sandbox.apiSecret, options.now)),
	);
	afterAll(() => client?.close());
	return { sandbox, client: startedInBeforeAll(() => client) };
}
