import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';

/** The Support Ticket API credential that reaches `sandbox`, or the same service at `baseUrl` (a proxy in front of it). */
export function credentialsFor(
	sandbox: Pick<Sandbox, 'baseUrl' | 'apiKey' | 'apiSecret'>,
	baseUrl = sandbox.baseUrl,
): ICredentialDataDecryptedObject {
	return { baseUrl, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret };
}

export interface SandboxFixture {
	/** The sandbox of the enclosing test file or describe block: use it in tests and hooks (it starts in beforeAll). */
	readonly sandbox: Sandbox;
	/** `credentialsFor(sandbox)`, filled in beforeAll; a test may change a field if it puts it back. */
	readonly credentials: ICredentialDataDecryptedObject;
}

/**
 * Jest fixture: one sandbox for the enclosing file or describe block, started in beforeAll and
 * stopped in afterAll. Before each test its request log is empty, and it has no faults and answers
 * in the spec's shapes (docs/api.md#answers), whatever the test before it set.
 */
export function useSandbox(options: SandboxOptions = {}): SandboxFixture {
	let started: Sandbox | undefined;
	const credentials: ICredentialDataDecryptedObject = {};
	beforeAll(async () => {
		started = await startSandbox(options);
		Object.assign(credentials, credentialsFor(started));
	});
	afterAll(async () => started?.stop());
	beforeEach(() => {
		started?.clearLog();
		started?.setFaults({});
		started?.setResponseShape({});
	});
	return { sandbox: startedInBeforeAll(() => started), credentials };
}

/**
 * Stands for an object a beforeAll hook creates: reads pass through to it once it exists, so a
 * fixture can hand it out when the test file is loaded and tests use `thing.x` as with their own.
 */
export function startedInBeforeAll<T extends object>(current: () => T | undefined): T {
	return new Proxy({} as T, {
		get(_target, key) {
			const target = current();
			if (target === undefined) throw new Error('This starts in beforeAll: use it inside a test or a hook');
			return Reflect.get(target, key) as unknown;
		},
	});
}
