import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import {
	chainWorkflow,
	startWebhookReceiver,
	workflowNode,
	type WebhookReceiver,
} from '../../harness';
import { createRandom, pick, randomInt, type Random } from '../../../sandbox/prng';
import { deliver, nowSeconds, signDelivery, type Answer, type DeliveryParts } from './deliveries';

const SECRET = 'matrix sëcret "with" spaces';
const PREVIOUS = 'previous sëcret 🔑 "rotated"';
const DELIVERIES = 1000;

const MUTATIONS = [
	'none',
	'header-case',
	'api-key',
	'body-byte',
	'body-appended',
	'body-reserialized',
	'path',
	'query',
	'timestamp-shift',
	'timestamp-stale',
	'timestamp-ms',
	'signature-byte',
	'signature-other-secret',
	'signature-missing',
	'timestamp-missing',
	'signature-duplicated',
	'huge-genuine',
	'huge-tampered',
	'signature-previous-secret',
	'replay',
] as const;
type Mutation = (typeof MUTATIONS)[number];
/** Mutations after which the delivery is still exactly what the secret's holder signed. */
const GENUINE: ReadonlySet<Mutation> = new Set(['none', 'header-case', 'api-key', 'huge-genuine']);

/** What the service may sign with: the Webhook Secret; during a rotation the previous one too. */
const SETUPS = [
	{ name: 'Webhook Secret', previousWebhookSecret: '', signingSecrets: [SECRET] },
	{
		name: 'Webhook Secret and Previous Webhook Secret',
		previousWebhookSecret: PREVIOUS,
		signingSecrets: [SECRET, PREVIOUS],
	},
];
type Setup = (typeof SETUPS)[number];

type Outcome = 'started' | 'dropped' | 'refused' | 'crashed';

function expectedOutcome(mutation: Mutation, setup: Setup): Outcome {
	if (mutation === 'replay') return 'dropped';
	if (mutation === 'signature-previous-secret') {
		return setup.previousWebhookSecret ? 'started' : 'refused';
	}
	return GENUINE.has(mutation) ? 'started' : 'refused';
}

function outcomeOf(answer: Answer): Outcome {
	// 401 from the trigger; a body flipped into broken JSON may get 400 from the body parser first.
	if (answer.status === 400) return 'refused';
	// A refusal names its cause (signature.test.tsx checks which cause for which forgery).
	if (answer.status === 401)
		return /^(missing_headers|invalid_\w+|timestamp_\w+)$/.test(
			(JSON.parse(answer.body) as { error: string }).error,
		)
			? 'refused'
			: 'crashed';
	if (answer.status !== 200) return 'crashed';
	return (JSON.parse(answer.body) as { started?: boolean }).started ? 'started' : 'dropped';
}

function flipCharacter(random: Random, text: string, alphabet: string): string {
	const at = randomInt(random, 0, text.length - 1);
	const replacement =
		alphabet[
			(alphabet.indexOf(text[at]) + randomInt(random, 1, alphabet.length - 1)) % alphabet.length
		];
	return text.slice(0, at) + replacement + text.slice(at + 1);
}

function makeDelivery(
	random: Random,
	url: string,
	n: number,
	mutation: Mutation,
	secret: string,
): DeliveryParts {
	const huge = mutation.startsWith('huge');
	const payload = {
		id: `evt_m${n}`,
		event: pick(random, ['ticket.created', 'ticket.updated', 'reply.created', 'customer.created']),
		created_at: new Date().toISOString(),
		data: {
			id: `tkt_${n}`,
			subject: `Sübject ${n} ${'x'.repeat(huge ? 2 * 1024 * 1024 : randomInt(random, 0, 300))}`,
		},
	};
	const body = JSON.stringify(payload);
	// Fixed here, so a replay sends the very same bytes.
	const timestamp = nowSeconds();
	const parts: DeliveryParts = { url, body, secret, timestamp };
	switch (mutation) {
		case 'none':
		case 'huge-genuine':
		case 'replay':
			return parts;
		case 'signature-previous-secret':
			return { ...parts, secret: PREVIOUS };
		case 'header-case':
			return { ...parts, headers: { 'X-Api-Timestamp': timestamp, 'x-api-timestamp': null } };
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
			return {
				...parts,
				signedPath: new URL(url).pathname.replace('support-ticket', 'support-tickets'),
			};
		case 'query':
			return {
				...parts,
				url: `${url}?tenant=${n}`,
				signedPath: `${new URL(url).pathname}?tenant=${n + 1}`,
			};
		case 'timestamp-shift': {
			// Signed at one time, sent with another inside the window: the signature no longer matches.
			const signedAt = nowSeconds(-randomInt(random, 1, 200));
			return { ...parts, timestamp: signedAt, headers: { 'x-api-timestamp': nowSeconds() } };
		}
		case 'timestamp-stale':
			return {
				...parts,
				timestamp: nowSeconds(pick(random, [-1, 1]) * randomInt(random, 301, 100_000)),
			};
		case 'timestamp-ms':
			return { ...parts, timestamp: String(Date.now()) };
		case 'signature-byte':
			return {
				...parts,
				signature: flipCharacter(random, deliverySignature(parts), '0123456789abcdef'),
			};
		case 'signature-other-secret':
			return { ...parts, secret: `${secret}x` };
		case 'signature-missing':
			return { ...parts, headers: { 'x-api-signature': null } };
		case 'timestamp-missing':
			return { ...parts, headers: { 'x-api-timestamp': null } };
		case 'signature-duplicated':
			return {
				...parts,
				headers: { 'x-api-signature': [deliverySignature(parts), deliverySignature(parts)] },
			};
		case 'huge-tampered':
			return { ...parts, sentBody: body.replace('Sübject', 'Subject') };
	}
}

// The signature the sandbox's signer would send for these parts.
function deliverySignature(parts: DeliveryParts): string {
	return signDelivery({ ...parts, headers: {} })['x-api-signature'] as string;
}

describe.each(SETUPS)(`Security matrix, $name: ${DELIVERIES} generated deliveries`, (setup) => {
	let receiver: WebhookReceiver;
	beforeAll(async () => {
		const trigger = workflowNode(
			'On Event',
			'n8n-nodes-support-ticket.supportTicketTrigger',
			{ events: ['*'] },
			{ webhookId: 'matrix' },
		);
		const supportTicketApi = {
			baseUrl: 'http://127.0.0.1:9',
			apiKey: 'matrix-key',
			apiSecret: 'unused-api-secret',
			webhookSecret: SECRET,
			previousWebhookSecret: setup.previousWebhookSecret,
		};
		const workflow = chainWorkflow(trigger);
		receiver = await startWebhookReceiver(workflow, { supportTicketApi }, 'On Event');
	});
	afterAll(async () => receiver.stop());

	it('genuine: started once; replayed: dropped; forged or tampered: 401', async () => {
		// Everything n8n's logger is given (the trigger logs each rejection) is captured and searched too.
		const logger = Container.get(Logger);
		const logged: string[] = [];
		const spies = (['error', 'warn', 'info'] as const).map((level) =>
			jest
				.spyOn(logger, level)
				.mockImplementation(
					(message: string, meta?: object) =>
						void logged.push(`${message} ${JSON.stringify(meta ?? {})}`),
				),
		);
		const random = createRandom(20261122);
		const counts = new Map<Mutation, Record<Outcome | 'sent', number>>();
		const expectedStarts: string[] = [];
		let lastStarted: DeliveryParts | undefined;
		for (let n = 0; n < DELIVERIES; n++) {
			// Every mutation at least a few times, then random ones; the huge ones (2 MB) sparingly.
			let mutation =
				n < MUTATIONS.length * 3 ? MUTATIONS[n % MUTATIONS.length] : pick(random, MUTATIONS);
			if (mutation.startsWith('huge') && n >= MUTATIONS.length * 3) mutation = 'none';
			if (mutation === 'replay' && !lastStarted) mutation = 'none';
			const secret = pick(random, setup.signingSecrets);
			// A replay sends the last delivery that started the workflow again, byte for byte.
			const parts =
				mutation === 'replay' && lastStarted
					? lastStarted
					: makeDelivery(random, receiver.url, n, mutation, secret);
			const outcome = outcomeOf(await deliver(parts));
			const none = { sent: 0, started: 0, dropped: 0, refused: 0, crashed: 0 };
			const count = counts.get(mutation) ?? none;
			count.sent++;
			count[outcome]++;
			counts.set(mutation, count);
			if (expectedOutcome(mutation, setup) === 'started') {
				expectedStarts.push(`evt_m${n}`);
				lastStarted = parts;
			}
		}
		await receiver.idle();
		for (const spy of spies) spy.mockRestore();
		expect(logged.filter((line) => line.includes('rejected a delivery')).length).toBeGreaterThan(
			500,
		);
		const echoes = (text: string) => text.includes(SECRET) || text.includes(PREVIOUS);
		expect(logged.filter(echoes)).toEqual([]);
		expect(receiver.deliveries.filter((answer) => echoes(answer.body))).toEqual([]);

		for (const [mutation, count] of counts) {
			const expected = { started: 0, dropped: 0, refused: 0, crashed: 0, sent: count.sent };
			expected[expectedOutcome(mutation, setup)] = count.sent;
			expect({ mutation, ...count }).toEqual({ mutation, ...expected });
		}
		expect([...counts.values()].reduce((sum, c) => sum + c.sent, 0)).toBe(DELIVERIES);
		expect(counts.size).toBe(MUTATIONS.length);
		// Exactly the genuine deliveries started the workflow, each once.
		expect(receiver.executions.map((run) => run.output('On Event')[0].json.id)).toEqual(
			expectedStarts,
		);
	});
});
