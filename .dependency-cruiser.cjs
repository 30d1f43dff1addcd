/** Layers go one way (CONTRIBUTING.md, "Layout"): checked by `npm run lint`. */
module.exports = {
	forbidden: [
		{ name: 'no-file-cycle', severity: 'error', from: {}, to: { circular: true } },
		{ name: 'no-folder-cycle', severity: 'error', scope: 'folder', from: {}, to: { circular: true } },
		{
			name: 'shared-knows-no-node',
			severity: 'error',
			from: { path: '^nodes/shared/' },
			to: { path: '^(nodes/SupportTicket[^/]*|credentials)/' },
		},
		{
			name: 'signing-stands-alone',
			comment: 'Signing is pure: the credential, the nodes and the sandbox check all stand on it.',
			severity: 'error',
			from: { path: '^nodes/shared/signing/' },
			to: { path: '^nodes/shared/(?!signing/)' },
		},
		{
			name: 'parameters-stand-alone',
			comment: 'Readers of what users enter; transport (the timeout) stands on them, so they import nothing of it.',
			severity: 'error',
			from: { path: '^nodes/shared/parameters/' },
			to: { path: '^nodes/shared/(?!parameters/)' },
		},
		{
			name: 'resources-below-the-router',
			comment: 'A resource folder stands on actions/common only; the router and resources.ts stand on the resources.',
			severity: 'error',
			from: { path: '^nodes/SupportTicket/actions/(?!common/)[^/]+/' },
			to: { path: '^nodes/SupportTicket/actions/[^/]+[.]ts$' },
		},
		{
			name: 'product-ships-alone',
			severity: 'error',
			from: { path: '^(nodes|credentials)/' },
			to: { path: '^(test|sandbox|bench|scripts)/' },
		},
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		exclude: { path: '^(dist|build)/' },
		tsConfig: { fileName: 'tsconfig.tools.json' },
		tsPreCompilationDeps: true,
		enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.json'] },
	},
};
