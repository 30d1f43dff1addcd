import { startedInBeforeAll } from '../harness/useSandbox';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../sandbox/server';
import { TestClient } from './testClient';

/** A sandbox for the enclosing block and a client signing with its key on its clock (`options.now`). */
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
