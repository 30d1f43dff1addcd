import { createRequire } from 'node:module';
import path from 'node:path';

import type { N8nInstall } from './n8nInstall';

interface Flatted {
	parse(text: string): unknown;
}

/**
 * n8n stores and sends an execution's run data serialized with `flatted` (JSON with shared and
 * circular references). Parsed with the `flatted` that this n8n install itself uses, so the
 * format always matches the version under test.
 */
export function parseExecutionData(install: N8nInstall, text: string): unknown {
	const requireFromN8n = createRequire(path.join(install.dir, 'node_modules', 'n8n', 'package.json'));
	return (requireFromN8n('flatted') as Flatted).parse(text);
}
