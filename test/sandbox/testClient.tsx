// Test-only client with its own request signer, written apart from the sandbox's verifier; node:http sends the
// request target byte for byte (fetch would normalise it).
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';

export const API = '/api/v1/external';

type ApiErrorBody = { code: string; message: string; details?: Record<string, unknown> };

export interface TestResponse {
	status: number;
	headers: http.IncomingHttpHeaders;
	text: string;
	/** Parsed JSON, or undefined for an empty body. */
	json: unknown;
}

export interface TestRequestOptions {
	/** Object: sent as compact JSON with Content-Type application/json. String/Buffer: sent as is. */
	body?: unknown;
	/** Extra or replacement headers; `undefined` removes a header (e.g. a signing header). */
	headers?: Record<string, string | undefined>;
	/** Overrides the timestamp that is sent and signed. */
	timestamp?: string;
	apiKey?: string;
	/** Secret used for signing (default: the client's). */
	secret?: string;
}

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

export class TestClient {
	private readonly agent = new http.Agent({ keepAlive: true });

	constructor(
		readonly baseUrl: string,
		readonly apiKey = 'sandbox-key',
		readonly apiSecret = 'sandbox-secret',
		private readonly clock: () => number = Date.now,
	) {}

	/** `path` is the exact request target, e.g. `/api/v1/external/tickets?per_page=5`. */
	request(method: string, path: string, options: TestRequestOptions = {}): Promise<TestResponse> {
		let payload: Buffer = Buffer.alloc(0);
		const headers: Record<string, string> = {};
		if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) {
			payload = Buffer.from(options.body);
		} else if (options.body !== undefined) {
			payload = Buffer.from(JSON.stringify(options.body), 'utf8');
			headers['content-type'] = 'application/json';
		}
		const timestamp = options.timestamp ?? String(Math.floor(this.clock() / 1000));
		headers['x-api-key'] = options.apiKey ?? this.apiKey;
		headers['x-api-timestamp'] = timestamp;
		headers['x-api-signature'] = signForTest(
			options.secret ?? this.apiSecret,
			timestamp,
			method,
			path,
			payload,
		);
		for (const [name, value] of Object.entries(options.headers ?? {})) {
			if (value === undefined) delete headers[name.toLowerCase()];
			else headers[name.toLowerCase()] = value;
		}
		return this.send(method, path, headers, payload);
	}

	get(path: string, options?: TestRequestOptions): Promise<TestResponse> {
		return this.request('GET', `${API}${path}`, options);
	}

	close(): void {
		this.agent.destroy();
	}

	private send(
		method: string,
		path: string,
		headers: Record<string, string>,
		payload: Buffer,
	): Promise<TestResponse> {
		const url = new URL(this.baseUrl);
		return new Promise((resolve, reject) => {
			const request = http.request(
				{
					hostname: url.hostname,
					port: url.port,
					method,
					path,
					agent: this.agent,
					headers: { ...headers, 'content-length': String(payload.length) },
				},
				(response) => {
					const chunks: Buffer[] = [];
					response.on('data', (chunk: Buffer) => chunks.push(chunk));
					response.on('end', () => {
						const text = Buffer.concat(chunks).toString('utf8');
						resolve({
							status: response.statusCode ?? 0,
							headers: response.headers,
							text,
							json: text === '' ? undefined : (JSON.parse(text) as unknown),
						});
					});
					response.on('error', reject);
				},
			);
			request.on('error', reject);
			request.end(payload);
		});
	}
}

/** The error body of a response, asserting it has the documented shape. */
export function errorOf(response: TestResponse): ApiErrorBody {
	const body = response.json as { error?: ApiErrorBody };
	if (typeof body?.error?.code !== 'string' || typeof body.error.message !== 'string') {
		throw new Error(`not an error body: ${response.status} ${response.text}`);
	}
	return body.error;
}
