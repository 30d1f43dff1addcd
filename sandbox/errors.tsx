/**
 * One error shape for every failure the sandbox reports:
 *   {"error": {"code": "...", "message": "...", "details"?: {...}}}
 * The spec leaves the error format "not shown" (docs/api.md#errors); this is the sandbox's documented choice.
 */

export interface ErrorBody {
	error: { code: string; message: string; details?: Record<string, unknown> };
}

/** Field name -> human readable problems, as returned in a 422's `details.fields`. */
export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly details?: Record<string, unknown>,
		readonly headers: Record<string, string> = {},
	) {
		super(message);
		this.name = 'ApiError';
	}

	toBody(): ErrorBody {
		const error: ErrorBody['error'] = { code: this.code, message: this.message };
		if (this.details !== undefined) error.details = this.details;
		return { error };
	}
}

export function notFound(resource: string, id: string): ApiError {
	return new ApiError(404, 'not_found', `${resource} '${id}' was not found.`, { resource, id });
}

export function invalidParameter(parameter: string, message: string): ApiError {
	return new ApiError(400, 'invalid_parameter', message, { parameter });
}

/** Collects field problems so a client learns about all of them in one 422, not one per try. */
export class FieldErrorCollector {
	private readonly fields: FieldErrors = {};
	private count = 0;

	add(field: string, problem: string): void {
		(this.fields[field] ??= []).push(problem);
		this.count++;
	}

	get hasErrors(): boolean {
		return this.count > 0;
	}

	throwIfAny(): void {
		if (this.count > 0) throw validationFailed(this.fields);
	}
}

export function validationFailed(fields: FieldErrors): ApiError {
	const names = Object.keys(fields);
	return new ApiError(
		422,
		'validation_failed',
		`The request body is invalid: ${names.map((n) => `${n} ${fields[n].join('; ')}`).join(', ')}.`,
		{ fields },
	);
}
