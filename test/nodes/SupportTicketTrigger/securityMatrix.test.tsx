import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { chainWorkflow, startWebhookReceiver, workflowNode, type WebhookReceiver } from '../../harness';
import { createRandom, pick, randomInt, type Random } from '../../../sandbox/prng';
import { deliver, nowSeconds, signDelivery, type DeliveryParts } from './deliveries';

const SECRET = 'matrix sëcret "with" spaces';
const DELIVERIES = 1000;

const MUTATIONS = [
	'none', 'header-case', 'api-key', 'body-byte', 'body-appended', 'body-reserialized', 'path', 'query',
	'timestamp-shift', 'timestamp-stale', 'timestamp-ms', 'signature-byte', 'signature-other-secret',
	'signature-missing', 'timestamp-missing', 'signature-duplicated', 'huge-genuine', 'huge-tampered',
] as const;
type Mutation = (typeof MUTATIONS)[number];
/** Mutations after which the delivery is still exactly what the secret's holder signed. */
const GENUINE: ReadonlySet<Mutation> = new Set(['none', 'header-case', 'api-key', 'huge-genuine']);

function flipCharacter(random: Random, text: string, alphabet: string): string {
	const at = randomInt(random, 0, text.length - 1);
	const replacement = alphabet[(alphabet.indexOf(text[at]) + randomInt(random, 1, alphabet.length - 1)) % alphabet.length];
	return text.slice(0, at) + replacement + text.slice(at + 1);
}

function makeDelivery(random: Random, url: string, n: number, mutation: Mutation): DeliveryParts {
	const huge = mutation.startsWith('huge');
	const payload = {
		id: `evt_m${n}`,
		event: pick(random, ['ticket.created', 'ticket.updated', 'reply.created', 'customer.created']),
		created_at: new Date().toISOString(),
		data: { id: `tkt_${n}`, subject: `Sübject ${n} ${'x'.repeat(huge ? 2 * 1024 * 1024 : randomInt(random, 0, 300))}` },
	};
	const body = JSON.stringify(payload);
	const parts: DeliveryParts = { url, body, secret: SECRET };
	switch (mutation) {
		case 'none':
		case 'huge-genuine':
			return parts;
		case 'header-case': {
			// Signed and sent with one timestamp: read twice, a second could pass in between (seen once in 25 loaded runs).
			const timestamp = nowSeconds();
			return { ...parts, timestamp, headers: { 'X-Api-Timestamp': timestamp, 'x-api-timestamp': null } };
		}
		case 'api-key':
			return { ...parts, headers: { 'x-api-key': `other-key-${n}` } };
		case 'body-byte': {
			const at = randomInt(random, 0, body.length - 1);
			const bytes = Buffer.from(body);
			bytes[at] ^= 1 << randomInt(random, 0, 6);
			return { ...parts, sentBody: bytes };
		}
		case 'body-appended':
			return { ...parts, sentBody: `${body} ` };
		case 'body-reserialized':
			return { ...parts, sentBody: JSON.stringify(payload, null, 2) };
		case 'path':
			return { ...parts, signedPath: new URL(url).pathname.replace('support-ticket', 'support-tickets') };
		case 'query':
			return { ...parts, url: `${url}?tenant=${n}`, signedPath: `${new URL(url).pathname}?tenant=${n + 1}` };
		case 'timestamp-shift': {
			// Signed at one time, sent with another inside the window: the signature no longer matches.
			const signedAt = nowSeconds(-randomInt(random, 1, 200));
			return { ...parts, timestamp: signedAt, headers: { 'x-api-timestamp': nowSeconds() } };
		}
		case 'timestamp-stale':
			return { ...parts, timestamp: nowSeconds(pick(random, [-1, 1]) * randomInt(random, 301, 100_000)) };
		case 'timestamp-ms':
			return { ...parts, timestamp: String(Date.now()) };
		case 'signature-byte':
			return { ...parts, signature: flipCharacter(random, deliverySignature(parts), '0123456789abcdef') };
		case 'signature-other-secret':
			return { ...parts, secret: `${SECRET}x` };
		case 'signature-missing':
			return { ...parts, headers: { 'x-api-signature': null } };
		case 'timestamp-missing':
			return { ...parts, headers: { 'x-api-timestamp': null } };
		case 'signature-duplicated':
			return { ...parts, headers: { 'x-api-signature': [deliverySignature(parts), deliverySignature(parts)] } };
		case 'huge-tampered':
			return { ...parts, sentBody: body.replace('Sübject', 'Subject') };
	}
}

// The signature the sandbox's signer would send for these parts.
function deliverySignature(parts: DeliveryParts): string {
	return signDelivery({ ...parts, headers: {} })['x-api-signature'] as string;
}

describe(`Security matrix: ${DELIVERIES} generated webhook deliveries`, () => {
	let receiver: WebhookReceiver;
	beforeAll(async () => {
		const trigger = workflowNode('On Event', 'n8n-nodes-support-ticket.supportTicketTrigger', { events: ['*'] }, { webhookId: 'matrix' });
		receiver = await startWebhookReceiver(
			chainWorkflow(trigger),
			{ supportTicketApi: { baseUrl: 'http://127.0.0.1:9', apiKey: 'matrix-key', apiSecret: 'unused-api-secret', webhookSecret: SECRET } },
			'On Event',
		);
	});
	afterAll(async () => receiver.stop());

	it('accepts only genuinely signed deliveries, rejects every tampered one with 401, never crashes, never echoes the secret', async () => {
		// Everything n8n's logger is given (the trigger logs each rejection) is captured and searched too.
		const logger = Container.get(Logger);
		const logged: string[] = [];
		const spies = (['error', 'warn', 'info'] as const).map((level) =>
			jest.spyOn(logger, level).mockImplementation((message: string, meta?: object) => void logged.push(`${message} ${JSON.stringify(meta ?? {})}`)),
		);
		const random = createRandom(20261122);
		const counts = new Map<Mutation, { sent: number; accepted: number; rejected: number; crashed: number }>();
		const expectedStarts: string[] = [];
		for (let n = 0; n < DELIVERIES; n++) {
			// Every mutation at least a few times, then random ones; the huge ones (2 MB) sparingly.
			let mutation = n < MUTATIONS.length * 3 ? MUTATIONS[n % MUTATIONS.length] : pick(random, MUTATIONS);
			if (mutation.startsWith('huge') && n >= MUTATIONS.length * 3) mutation = 'none';
			const parts = makeDelivery(random, receiver.url, n, mutation);
			const answer = await deliver(parts);
			const count = counts.get(mutation) ?? { sent: 0, accepted: 0, rejected: 0, crashed: 0 };
			count.sent++;
			// 401 from the trigger; a body flipped into broken JSON may already get 400 from the body parser.
			if (answer.status === 200) count.accepted++;
			else if (answer.status === 401 || answer.status === 400) count.rejected++;
			else count.crashed++;
			counts.set(mutation, count);
			expect(answer.body).not.toContain(SECRET);
			if (GENUINE.has(mutation)) expectedStarts.push(`evt_m${n}`);
		}
		await receiver.idle();
		for (const spy of spies) spy.mockRestore();
		expect(logged.filter((line) => line.includes('rejected a delivery')).length).toBeGreaterThan(500);
		expect(logged.filter((line) => line.includes(SECRET))).toEqual([]);

		for (const [mutation, count] of counts) {
			const accepted = GENUINE.has(mutation) ? count.sent : 0;
			expect({ mutation, ...count }).toEqual({ mutation, sent: count.sent, accepted, rejected: count.sent - accepted, crashed: 0 });
		}
		expect([...counts.values()].reduce((sum, c) => sum + c.sent, 0)).toBe(DELIVERIES);
		expect(counts.size).toBe(MUTATIONS.length);
		// Exactly the genuine deliveries started the workflow, each once.
		expect(receiver.executions.map((run) => run.output('On Event')[0].json.id)).toEqual(expectedStarts);
	});
});
