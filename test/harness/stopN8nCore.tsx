/** Stops what n8n-core started for a test file that only n8n's exit stops: SSHClientsManager's interval kept each file's modules (~20 MB) alive. */
afterAll(async () => {
	// Only in files that loaded n8n-core: loading it here would cost every other file ~0.4 s.
	if (!(require.resolve('n8n-core/dist/execution-engine/ssh-clients-manager') in require.cache))
		return;
	const { Container } = await import('@n8n/di');
	const { SSHClientsManager } = await import('n8n-core/dist/execution-engine/ssh-clients-manager');
	Container.get(SSHClientsManager).onShutdown();
});
