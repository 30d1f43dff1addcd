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

/** One sandbox for the enclosing file or block; before each test its log is empty, no faults, the spec's shapes. */
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

/** An object a beforeAll creates, handed out at load time: reads pass through once it exists. */
export function startedInBeforeAll<T extends object>(current: () => T | undefined): T {
	return new Proxy({} as T, {
		get(_target, key) {
			const target = current();
			if (target === undefined)
				throw new Error('This starts in beforeAll: use it inside a test or a hook');
			return Reflect.get(target, key) as unknown;
		},
	});
}
