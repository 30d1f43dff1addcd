// A request signer written apart from the sandbox's verifier and the package's signer.
import { createHash, createHmac } from 'node:crypto';

/** Lowercase hex HMAC-SHA256(secret, timestamp + METHOD + path + sha256hex(body)). */
export function signForTest(
	secret: string,
	timestamp: string,
	method: string,
	path: string,
	body: Buffer | string,
): string {
	const bodyHash = createHash('sha256').update(body).digest('hex');
	return createHmac('sha256', secret)
		.update(timestamp + method.toUpperCase() + path + bodyHash)
		.digest('hex');
}
