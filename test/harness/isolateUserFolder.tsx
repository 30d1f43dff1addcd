import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** n8n-core keeps an encryption key in the user folder: a throwaway one, not the developer's ~/.n8n (before the first run). */
export function isolateUserFolder(): void {
	process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'n8n-harness-'));
	process.env.N8N_ENCRYPTION_KEY ??= 'harness-encryption-key';
	process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
}
