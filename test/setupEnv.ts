import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// n8n-core keeps its instance settings (encryption key) in the user folder: give every test
// worker a throwaway one instead of writing into the developer's ~/.n8n.
process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'n8n-harness-'));
process.env.N8N_ENCRYPTION_KEY ??= 'harness-encryption-key';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
