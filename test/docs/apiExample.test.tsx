/** The signing example in docs/api.md is what the package computes, so a reader can check their own signer against it. */
import { readFileSync } from 'node:fs';

import { computeSignature, sha256Hex } from '../../nodes/shared/signing/signature';
import { repoPath } from '../harness';

const doc = readFileSync(repoPath('docs/api.md'), 'utf8');
const BODY =
	'{"subject":"Printer on fire","description":"Smoke since 9:00","customer":{"email":"ana@example.com"}}';

describe('docs/api.md signing example', () => {
	it.each([
		['GET', '/api/v1/external/tickets?per_page=1', ''],
		['POST', '/api/v1/external/tickets', BODY],
	])('gives the message and signature of a %s', (method, pathWithQuery, body) => {
		const timestamp = '1750000000';
		const signature = computeSignature('sandbox-secret', {
			timestamp,
			method,
			pathWithQuery,
			body,
		});
		const request = `\`${method} ${pathWithQuery}\`${body && `, body \`${body}\``}`;
		const message = `${timestamp}${method}${pathWithQuery}${body && '` + `'}${sha256Hex(body)}`;
		expect(doc).toContain(`| ${request} | \`${message}\` | \`${signature}\` |`);
	});
});
