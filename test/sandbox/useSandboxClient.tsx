import { startedInBeforeAll } from '../harness/useSandbox';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../sandbox/server';
import { TestClient } from './testClient';

/**
 * Jest fixture of the sandbox's own tests: a sandbox for the enclosing describe block and a client
 * that signs with its key on its clock (`options.now`), started in beforeAll, closed in afterAll.
 */
export function useSandboxClient(options: SandboxOptions = {}): { sandbox: Sandbox; client: TestClient } {
	let started: { sandbox: Sandbox; client: TestClient } | undefined;
	beforeAll(async () => {
		const sandbox = await startSandbox(options);
		started = { sandbox, client: new TestClient(sandbox.baseUrl, sandbox.apiKey, sandbox.apiSecret, options.now) };
	});
	afterAll(async () => {
		started?.client.close();
		await started?.sandbox.stop();
	});
	return { sandbox: startedInBeforeAll(() => started?.sandbox), client: startedInBeforeAll(() => started?.client) };
}
