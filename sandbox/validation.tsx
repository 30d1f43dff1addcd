/**
 * Request body validation for create and update operations. Every problem is collected and
 * reported together in one 422 `validation_failed` with `details.fields`.
 *
 * The spec shows only `high` (priority) and `open` (status; docs/api.md#fields); the sandbox picks the sets below.
 * Fields the sandbox does not know are kept as custom fields and echoed back.
 */
import { FieldErrorCollector } from './errors';

export type JsonObject = Record<string, unknown>;

export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const TICKET_STATUSES = ['open', 'pending', 'on_hold', 'solved', 'closed'] as const;
export const DEFAULT_PRIORITY = 'normal';
export const DEFAULT_STATUS = 'open';

/** Deliberately simple: something@something.tld without spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface CustomerReference {
	email: string;
	name?: string;
}

export interface TicketCreateInput {
	subject: string;
	description: string;
	priority: string;
	status: string;
	customer: CustomerReference;
	custom: JsonObject;
}

export interface TicketUpdateInput {
	subject?: string;
	description?: string;
	priority?: string;
	status?: string;
	customer?: CustomerReference;
	custom: JsonObject;
}

export interface ReplyCreateInput {
	body: string;
	custom: JsonObject;
}

export interface CustomerCreateInput {
	email: string;
	name?: string;
	custom: JsonObject;
}

export interface CustomerUpdateInput {
	email?: string;
	name?: string;
	custom: JsonObject;
}

const TICKET_FIELDS = ['subject', 'description', 'priority', 'status', 'customer'];
const TICKET_READ_ONLY = ['id', 'created_at', 'updated_at'];
const REPLY_FIELDS = ['body'];
const REPLY_READ_ONLY = ['id', 'ticket_id', 'created_at'];
const CUSTOMER_FIELDS = ['email', 'name'];
const CUSTOMER_READ_ONLY = ['id', 'created_at', 'updated_at'];

export function isJsonObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isValidEmail(value: string): boolean {
	return EMAIL_PATTERN.test(value);
}

export function validateTicketCreate(body: JsonObject): TicketCreateInput {
	const errors = new FieldErrorCollector();
	rejectReadOnly(body, TICKET_READ_ONLY, errors);
	const subject = requiredText(body, 'subject', errors);
	const description = requiredText(body, 'description', errors);
	const priority = optionalChoice(body, 'priority', TICKET_PRIORITIES, errors) ?? DEFAULT_PRIORITY;
	const status = optionalChoice(body, 'status', TICKET_STATUSES, errors) ?? DEFAULT_STATUS;
	let customer: CustomerReference | undefined;
	if (body.customer === undefined)
		errors.add('customer', 'is required (an object with email and optional name)');
	else customer = customerReference(body.customer, errors);
	errors.throwIfAny();
	return {
		subject: subject!,
		description: description!,
		priority,
		status,
		customer: customer!,
		custom: customFields(body, TICKET_FIELDS, TICKET_READ_ONLY),
	};
}

export function validateTicketUpdate(body: JsonObject): TicketUpdateInput {
	const errors = new FieldErrorCollector();
	rejectEmpty(body, errors);
	rejectReadOnly(body, TICKET_READ_ONLY, errors);
	const input: TicketUpdateInput = { custom: customFields(body, TICKET_FIELDS, TICKET_READ_ONLY) };
	if (body.subject !== undefined) input.subject = requiredText(body, 'subject', errors);
	if (body.description !== undefined) input.description = requiredText(body, 'description', errors);
	input.priority = optionalChoice(body, 'priority', TICKET_PRIORITIES, errors);
	input.status = optionalChoice(body, 'status', TICKET_STATUSES, errors);
	if (body.customer !== undefined) input.customer = customerReference(body.customer, errors);
	errors.throwIfAny();
	return dropUndefined(input);
}

export function validateReplyCreate(body: JsonObject): ReplyCreateInput {
	const errors = new FieldErrorCollector();
	rejectReadOnly(body, REPLY_READ_ONLY, errors);
	const text = requiredText(body, 'body', errors);
	errors.throwIfAny();
	return { body: text!, custom: customFields(body, REPLY_FIELDS, REPLY_READ_ONLY) };
}

export function validateCustomerCreate(body: JsonObject): CustomerCreateInput {
	const errors = new FieldErrorCollector();
	rejectReadOnly(body, CUSTOMER_READ_ONLY, errors);
	const email = requiredEmail(body.email, 'email', errors);
	const name = optionalString(body, 'name', errors);
	errors.throwIfAny();
	return dropUndefined({
		email: email!,
		name,
		custom: customFields(body, CUSTOMER_FIELDS, CUSTOMER_READ_ONLY),
	});
}

export function validateCustomerUpdate(body: JsonObject): CustomerUpdateInput {
	const errors = new FieldErrorCollector();
	rejectEmpty(body, errors);
	rejectReadOnly(body, CUSTOMER_READ_ONLY, errors);
	const email = body.email === undefined ? undefined : requiredEmail(body.email, 'email', errors);
	const name = optionalString(body, 'name', errors);
	errors.throwIfAny();
	return dropUndefined({
		email,
		name,
		custom: customFields(body, CUSTOMER_FIELDS, CUSTOMER_READ_ONLY),
	});
}

function customerReference(
	value: unknown,
	errors: FieldErrorCollector,
): CustomerReference | undefined {
	if (!isJsonObject(value)) {
		errors.add('customer', 'must be an object with email and optional name');
		return undefined;
	}
	const email = requiredEmail(value.email, 'customer.email', errors);
	const name = optionalString(value, 'name', errors, 'customer.name');
	// The nested object identifies a customer; custom customer fields go through /customers.
	for (const key of Object.keys(value)) {
		if (key !== 'email' && key !== 'name')
			errors.add(
				`customer.${key}`,
				'is not accepted here; the ticket customer object takes only email and name',
			);
	}
	return email === undefined ? undefined : dropUndefined({ email, name });
}

function requiredText(
	body: JsonObject,
	field: string,
	errors: FieldErrorCollector,
): string | undefined {
	const value = body[field];
	if (value === undefined) errors.add(field, 'is required');
	else if (typeof value !== 'string') errors.add(field, 'must be a string');
	else if (value.trim() === '') errors.add(field, 'must not be blank');
	else return value;
	return undefined;
}

function requiredEmail(
	value: unknown,
	field: string,
	errors: FieldErrorCollector,
): string | undefined {
	if (value === undefined) errors.add(field, 'is required');
	else if (typeof value !== 'string') errors.add(field, 'must be a string');
	else if (!isValidEmail(value)) errors.add(field, 'must be a valid e-mail address');
	else return value;
	return undefined;
}

function optionalString(
	body: JsonObject,
	key: string,
	errors: FieldErrorCollector,
	field = key,
): string | undefined {
	const value = body[key];
	if (value === undefined) return undefined;
	if (typeof value !== 'string') {
		errors.add(field, 'must be a string');
		return undefined;
	}
	return value;
}

function optionalChoice(
	body: JsonObject,
	field: string,
	allowed: readonly string[],
	errors: FieldErrorCollector,
): string | undefined {
	const value = body[field];
	if (value === undefined) return undefined;
	if (typeof value !== 'string' || !allowed.includes(value)) {
		errors.add(field, `must be one of ${allowed.join(', ')}`);
		return undefined;
	}
	return value;
}

function rejectReadOnly(
	body: JsonObject,
	readOnly: readonly string[],
	errors: FieldErrorCollector,
): void {
	for (const field of readOnly) {
		if (Object.prototype.hasOwnProperty.call(body, field))
			errors.add(field, 'is read-only and is assigned by the service');
	}
}

function rejectEmpty(body: JsonObject, errors: FieldErrorCollector): void {
	if (Object.keys(body).length === 0)
		errors.add('_body', 'must contain at least one field to change');
}

/** Fields outside the known and read-only sets, kept verbatim (null-prototype: `__proto__` is just a key). */
function customFields(
	body: JsonObject,
	known: readonly string[],
	readOnly: readonly string[],
): JsonObject {
	const custom: JsonObject = Object.create(null) as JsonObject;
	for (const key of Object.keys(body)) {
		if (!known.includes(key) && !readOnly.includes(key)) custom[key] = body[key];
	}
	return custom;
}

function dropUndefined<T extends object>(value: T): T {
	for (const key of Object.keys(value) as Array<keyof T>) {
		if (value[key] === undefined) delete value[key];
	}
	return value;
}
