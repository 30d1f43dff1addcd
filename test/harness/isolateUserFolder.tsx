import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * n8n-core keeps its instance settings (an encryption key) in the user folder: point it at a
 * throwaway one, unless the caller chose one, instead of writing into the developer's ~/.n8n.
 * Must run before the first workflow runs (n8n reads it lazily).
 */
export function isolateUserFolder(): void {
	process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'n8n-harness-'));
	process.env.N8N_ENCRYPTION_KEY ??= 'harness-encryption-key';
	process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
}
