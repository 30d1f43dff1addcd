/** Public entry point of the sandbox for tests, benchmarks and the demo. */
export {
	type AnswerGate,
	DEFAULT_API_KEY,
	DEFAULT_API_SECRET,
	type Sandbox,
	type SandboxOptions,
	startSandbox,
} from './server';
export { API_PREFIX } from './api';
export { ADMIN_PREFIX } from './admin';
export type { ErrorBody, FieldErrors } from './errors';
export type { FaultOptions, InjectedFault } from './faults';
export type { CallFilter, RequestLogEntry } from './requestLog';
export type { Customer, CustomerSummary, Reply, Ticket } from './records';
export {
	STORE_EVENTS,
	type SandboxStore,
	type StoreEventName,
	type TicketListOptions,
} from './store';
export { TICKET_PRIORITIES, TICKET_STATUSES } from './validation';
export {
	WEBHOOK_EVENTS,
	type Webhook,
	type WebhookDelivery,
	type WebhookOptions,
	type WebhookPayload,
} from './webhooks';
export { DEFAULT_PER_PAGE, MAX_PER_PAGE } from './listQuery';
export { MAX_BODY_BYTES } from './http';
export {
	CHANGE_KINDS,
	type ChangeDriver,
	type ChangeDriverOptions,
	type ChangeDriverSummary,
	type ChangeKind,
} from './changeDriver';
export type { WebhookChaosOptions, WebhookCounters } from './webhookChaos';
export { formatTimestamp, TIMESTAMP_FORMATS, type TimestampFormat } from './timestampFormat';
