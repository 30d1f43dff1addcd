/**
 * Turns a service answer that is not a success into what the user reads in n8n: what happened
 * and what to do about it. The service's own error body (`{error: {code, message, details}}` in
 * the sandbox; "not shown" in the spec) is used when present and ignored when it is not.
 */
import type { IDataObject } from 'n8n-workflow';

export interface ErrorContext {
	/** e.g. `ticket` and its id, for a 404. */
	resource?: string;
	id?: string;
	attempts?: number;
}

export interface DescribedError {
	message: string;
	description: string;
}

interface ServiceError {
	code?: string;
	message?: string;
	fields?: Record<string, unknown>;
}

export function readServiceError(body: unknown): ServiceError {
	if (!body || typeof body !== 'object') return typeof body === 'string' && body ? { message: body.slice(0, 300) } : {};
	const root = body as IDataObject;
	const error = (typeof root.error === 'object' && root.error !== null ? root.error : root) as IDataObject;
	const details = (error.details ?? root.details) as IDataObject | undefined;
	const fields = (details?.fields ?? error.fields ?? root.errors) as Record<string, unknown> | undefined;
	return {
		code: typeof error.code === 'string' ? error.code : undefined,
		message: typeof error.message === 'string' ? error.message : typeof root.error === 'string' ? root.error : undefined,
		fields: fields && typeof fields === 'object' ? fields : undefined,
	};
}

function fieldMessages(fields: Record<string, unknown> | undefined): string {
	if (!fields) return '';
	return Object.entries(fields)
		.map(([field, messages]) => `${field}: ${Array.isArray(messages) ? messages.join(', ') : String(messages)}`)
		.join('; ');
}

export function describeApiError(status: number, body: unknown, context: ErrorContext = {}): DescribedError {
	const service = readServiceError(body);
	const said = service.message ? ` The service said: "${service.message}"` : '';
	switch (status) {
		case 400:
			if (service.code === 'invalid_cursor' || service.code === 'cursor_mismatch' || /cursor/i.test(service.message ?? '')) {
				return {
					message: 'The service rejected the page cursor',
					description: `A cursor is valid only for the query that produced it and may expire. Run the node again to start from the first page, and do not change filters, sort or page size while paging with a cursor.${said}`,
				};
			}
			return { message: `The service rejected the request as invalid (HTTP 400)`, description: `Check the node's parameters.${said}` };
		case 401:
			return {
				message: 'Authentication failed (HTTP 401): the service did not accept the request signature',
				description: `Check, in this order: the API Key and API Secret in the credential; that the clock of the machine running n8n is correct (requests carry a timestamp in whole seconds and are rejected when it is a few minutes off); that the Base URL is the address the service signs, without /api/v1/external, and that no proxy rewrites the path.${said}`,
			};
		case 403:
			return { message: 'Access denied (HTTP 403)', description: `The API key is valid but may not do this.${said}` };
		case 404:
			if (context.resource && context.id !== undefined) {
				return {
					message: `The ${context.resource} with ID "${context.id}" was not found`,
					description: `Check the ID, or pick the ${context.resource} from the list.${said}`,
				};
			}
			return { message: 'Not found (HTTP 404)', description: `Check the Base URL in the credential.${said}` };
		case 413:
			return { message: 'The request is too large for the service (HTTP 413)', description: `Send shorter texts or fewer custom fields.${said}` };
		case 422: {
			const fields = fieldMessages(service.fields);
			return {
				message: `The service rejected the data${fields ? `: ${fields}` : ''}`,
				description: `Correct the fields named above.${said}`,
			};
		}
		case 429:
			return {
				message: `The service is rate limiting requests (HTTP 429)${triedText(context)}`,
				description: `Wait a little and run again, or lower the pace of the workflow (for example with a Wait node or smaller batches).${said}`,
			};
		default:
			if (status >= 500) {
				return {
					message: `The service had an error (HTTP ${status})${triedText(context)}`,
					description: `This is a problem on the service's side; try again later.${said}`,
				};
			}
			return { message: `The service answered HTTP ${status}`, description: said.trim() || 'Unexpected answer from the service.' };
	}
}

function triedText({ attempts }: ErrorContext): string {
	return attempts && attempts > 1 ? `, still after ${attempts} attempts` : '';
}
