/**
 * How the sandbox shapes successful answers, switchable for tests of what the spec allows but
 * leaves open, or what real services get slightly wrong. Defaults are the strict spec shapes.
 * - `single`: a single-resource answer as `envelope` `{"data": resource}`, `bare` (the resource
 *   without the envelope) or `noContent` (204, no body: "which operation returns 204: not shown").
 * - `hasMoreAsText`: list answers give `meta.has_more` as the text "true"/"false".
 */
import type { HttpResponse } from './http';

export type SingleShape = 'envelope' | 'bare' | 'noContent';

export interface ResponseShape {
	single?: SingleShape;
	hasMoreAsText?: boolean;
}

const SINGLE_SHAPES: readonly SingleShape[] = ['envelope', 'bare', 'noContent'];

export function checkResponseShape(shape: ResponseShape): ResponseShape {
	if (shape.single !== undefined && !SINGLE_SHAPES.includes(shape.single)) {
		throw new RangeError(`single must be one of ${SINGLE_SHAPES.join(', ')}`);
	}
	return { ...shape };
}

export function reshapeSuccess(result: HttpResponse, shape: ResponseShape): HttpResponse {
	if (result.status < 200 || result.status > 299) return result;
	const body = (result.body as { data?: unknown; meta?: Record<string, unknown> } | undefined) ?? {};
	if (body.meta !== undefined || Array.isArray(body.data)) {
		if (!shape.hasMoreAsText || !body.meta) return result;
		return { ...result, body: { ...body, meta: { ...body.meta, has_more: String(body.meta.has_more) } } };
	}
	if (shape.single === 'noContent') return { status: 204, headers: result.headers };
	if (shape.single === 'bare') return { ...result, body: body.data };
	return result;
}
