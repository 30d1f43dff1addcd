/**
 * How the sandbox shapes a successful single-resource answer, switchable for tests of what the
 * spec allows but leaves open ("a response with HTTP status 204 has no body; which operation
 * returns 204: not shown"): `envelope` (default) `{"data": resource}`, `bare` the resource without
 * the envelope, `noContent` 204 with no body. List answers keep their envelope.
 */
import type { HttpResponse } from './http';

export type SuccessShape = 'envelope' | 'bare' | 'noContent';

export const SUCCESS_SHAPES: readonly SuccessShape[] = ['envelope', 'bare', 'noContent'];

export function reshapeSuccess(result: HttpResponse, shape: SuccessShape): HttpResponse {
	if (shape === 'envelope' || result.status < 200 || result.status > 299) return result;
	const data = (result.body as { data?: unknown; meta?: unknown } | undefined) ?? {};
	if (data.meta !== undefined || Array.isArray(data.data)) return result;
	if (shape === 'noContent') return { status: 204, headers: result.headers };
	return { ...result, body: data.data };
}
