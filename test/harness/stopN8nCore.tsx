/**
 * Jest setup (setupFilesAfterEnv): as a test file ends, stops what n8n-core started for it that only
 * n8n's exit stops. SSHClientsManager, built with a node's first execution context, runs a 60 s
 * interval (unref'd) until `onShutdown()`: left running, it kept every workflow test file's module
 * registry (~20 MB) alive in the jest worker until the worker exited.
 */
afterAll(async () => {
	// Only in files that loaded n8n-core: loading it here would cost every other file ~0.4 s.
	if (!(require.resolve('n8n-core/dist/execution-engine/ssh-clients-manager') in require.cache)) return;
	const { Container } = await import('@n8n/di');
	const { SSHClientsManager } = await import('n8n-core/dist/execution-engine/ssh-clients-manager');
	Container.get(SSHClientsManager).onShutdown();
});
