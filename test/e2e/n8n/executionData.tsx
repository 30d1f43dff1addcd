import { createRequire } from 'node:module';
import path from 'node:path';

import type { N8nInstall } from './n8nInstall';

/** Run data is serialized with `flatted`: parsed with the install's own copy, so the format matches the version under test. */
export function parseExecutionData(install: N8nInstall, text: string): unknown {
	const requireFromN8n = createRequire(
		path.join(install.dir, 'node_modules', 'n8n', 'package.json'),
	);
	return (requireFromN8n('flatted') as { parse(text: string): unknown }).parse(text);
}
