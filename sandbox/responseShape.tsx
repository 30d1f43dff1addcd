/**
 * How the sandbox shapes its answers, switchable for tests of what the spec allows but leaves
 * open (docs/api.md#answers), or what real services get slightly wrong. Defaults are the strict spec shapes.
 * - `single`: a single-resource answer as `envelope` `{"data": resource}`, `bare` (the resource
 *   without the envelope) or `noContent` (204, no body: "which operation returns 204: not shown").
 * - `hasMoreAsText`: list answers give `meta.has_more` as the text "true"/"false".
 * - `hasMoreWithoutCursor`: list answers that say `has_more` give no usable `next_cursor`:
 *   `null`, left `missing` from `meta`, or `empty` (""). A broken service; the spec ties them.
 * - `rejectedCursorStatus`: a rejected cursor (`invalid_cursor`, `cursor_mismatch`) is answered
 *   with this status instead of 400, same body ("behavior for an invalid cursor: not shown").
 */
import type { ApiError } from './errors';
import type { HttpResponse } from './http';

export type SingleShape = 'envelope' | 'bare' | 'noContent';
export type LostCursor = 'null' | 'missing' | 'empty';
export type RejectedCursorStatus = 400 | 404 | 410 | 422;

export interface ResponseShape {
	single?: SingleShape;
	hasMoreAsText?: boolean;
	hasMoreWithoutCursor?: LostCursor;
	rejectedCursorStatus?: RejectedCursorStatus;
}

const SINGLE_SHAPES: readonly SingleShape[] = ['envelope', 'bare', 'noContent'];
const LOST_CURSORS: readonly LostCursor[] = ['null', 'missing', 'empty'];
const REJECTED_CURSOR_STATUSES: readonly RejectedCursorStatus[] = [400, 404, 410, 422];
const CURSOR_ERROR_CODES = ['invalid_cursor', 'cursor_mismatch'];

export function checkResponseShape(shape: ResponseShape): ResponseShape {
	if (shape.single !== undefined && !SINGLE_SHAPES.includes(shape.single)) {
		throw new RangeError(`single must be one of ${SINGLE_SHAPES.join(', ')}`);
	}
	if (
		shape.hasMoreWithoutCursor !== undefined &&
		!LOST_CURSORS.includes(shape.hasMoreWithoutCursor)
	) {
		throw new RangeError(`hasMoreWithoutCursor must be one of ${LOST_CURSORS.join(', ')}`);
	}
	if (
		shape.rejectedCursorStatus !== undefined &&
		!REJECTED_CURSOR_STATUSES.includes(shape.rejectedCursorStatus)
	) {
		throw new RangeError(
			`rejectedCursorStatus must be one of ${REJECTED_CURSOR_STATUSES.join(', ')}`,
		);
	}
	return { ...shape };
}

export function reshapeSuccess(result: HttpResponse, shape: ResponseShape): HttpResponse {
	if (result.status < 200 || result.status > 299) return result;
	const body =
		(result.body as { data?: unknown; meta?: Record<string, unknown> } | undefined) ?? {};
	if (body.meta !== undefined || Array.isArray(body.data)) {
		if (!body.meta) return result;
		return { ...result, body: { ...body, meta: reshapeMeta(body.meta, shape) } };
	}
	if (shape.single === 'noContent') return { status: 204, headers: result.headers };
	if (shape.single === 'bare') return { ...result, body: body.data };
	return result;
}

function reshapeMeta(meta: Record<string, unknown>, shape: ResponseShape): Record<string, unknown> {
	const reshaped = { ...meta };
	if (shape.hasMoreWithoutCursor && meta.has_more === true) {
		if (shape.hasMoreWithoutCursor === 'missing') delete reshaped.next_cursor;
		else reshaped.next_cursor = shape.hasMoreWithoutCursor === 'null' ? null : '';
	}
	if (shape.hasMoreAsText) reshaped.has_more = String(meta.has_more);
	return reshaped;
}

/** The status a failure is answered with: `rejectedCursorStatus` for a rejected cursor. */
export function errorStatus(error: ApiError, shape: ResponseShape): number {
	return shape.rejectedCursorStatus !== undefined && CURSOR_ERROR_CODES.includes(error.code)
		? shape.rejectedCursorStatus
		: error.status;
}
