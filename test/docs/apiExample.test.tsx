/** The signing example in docs/api.md is what the package computes, so a reader can check their own signer against it. */
import { readFileSync } from 'node:fs';

import { computeSignature, sha256Hex } from '../../nodes/shared/signing/signature';
import { repoPath } from '../harness';

const doc = readFileSync(repoPath('docs/api.md'), 'utf8');
const SECRET = 'sandbox-secret';
const TIMESTAMP = '1750000000';
const BODY =
	'{"subject":"Printer on fire","description":"Smoke since 9:00","customer":{"email":"ana@example.com"}}';

describe('docs/api.md signing example', () => {
	it('gives the signature of a GET with a query', () => {
		const signature = computeSignature(SECRET, {
			timestamp: TIMESTAMP,
			method: 'GET',
			pathWithQuery: '/api/v1/external/tickets?per_page=1',
			body: '',
		});
		expect(doc).toContain(`\`${TIMESTAMP}GET/api/v1/external/tickets?per_page=1${sha256Hex('')}\``);
		expect(doc).toContain(`\`${signature}\``);
	});

	it('gives the body hash and signature of a POST', () => {
		const signature = computeSignature(SECRET, {
			timestamp: TIMESTAMP,
			method: 'POST',
			pathWithQuery: '/api/v1/external/tickets',
			body: BODY,
		});
		expect(doc).toContain(`body \`${BODY}\``);
		expect(doc).toContain(`\`${sha256Hex(BODY)}\``);
		expect(doc).toContain(`\`${signature}\``);
	});
});
