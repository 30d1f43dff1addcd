/**
 * Deterministic seed data: the same (count, random seed, now) always yields the same store.
 *
 * - about count/5 customers (at least one), created in the 30 days before the first ticket;
 * - tickets created over the year before `now`, in sequence order, where every 10th
 *   timestamp is shared by 3 tickets (exercises the keyset tie-break);
 * - ~30% of tickets updated later (updated_at > created_at, before now);
 * - every 7th ticket has 1-3 replies;
 * - mixed priorities and statuses, unicode text (accents, CJK, emoji, RTL), and custom
 *   fields on some tickets and customers.
 *
 * Strings come from small shared pools so a million tickets stay cheap in memory.
 */
import { createRandom, pick, pickWeighted, randomInt } from './prng';
import type { CustomerRecord } from './records';
import type { SandboxStore } from './store';
import type { JsonObject } from './validation';

const DAY_MS = 86_400_000;
const TICKET_SPAN_MS = 365 * DAY_MS;
const CUSTOMER_SPAN_MS = 30 * DAY_MS;

const SUBJECTS = [
	'Cannot log in',
	'Ünïcødé ✓ invoice question',
	'日本語のチケット',
	'🎫 Ticket with emoji',
	'مرحبا — please help',
	'Refund request for order',
	'Password reset e-mail never arrives',
	'Ça ne marche pas',
	'Zażółć gęślą jaźń',
	'App crashes on start 💥',
	'Change billing address',
	'Доступ к аккаунту',
	'Export to CSV is empty',
	'Two-factor codes rejected',
] as const;

const DESCRIPTIONS = [
	'Since this morning the login page says my password is wrong.',
	'Ünïcødé ✓ text with "quotes", a backslash \\ and a newline\nin the middle.',
	'ログインできません。助けてください。',
	'Emoji everywhere 🎫🚀✨ and a family 👨‍👩‍👧 (zero-width joiners).',
	'مرحبا، لا أستطيع الوصول إلى حسابي',
	'I was charged twice for the same order.',
	'Tab\tseparated and trailing spaces   ',
	'A long description: ' + 'lorem ipsum dolor sit amet '.repeat(20).trim(),
] as const;

const REPLY_BODIES = [
	'Thanks, we are looking into it.',
	'Could you send a screenshot? 📸',
	'ご連絡ありがとうございます。',
	'شكرا لك',
	'Fixed in the latest release ✓',
] as const;

const CUSTOMER_NAMES = [
	'Zoë Ünïcødé',
	'山田 太郎',
	'أحمد مرحبا',
	'José Müller',
	'Ørjan Ærø',
	'Иван Иванов',
	'Anna Smith',
	'Chloé 🎉 Martin',
] as const;
const EMAIL_LOCAL_PARTS = [
	'zoe',
	'taro',
	'ahmad',
	'jose',
	'orjan',
	'ivan',
	'anna',
	'chloe',
] as const;

const TAG_SETS: ReadonlyArray<readonly string[]> = [
	Object.freeze(['billing']),
	Object.freeze(['login', 'urgent']),
	Object.freeze(['vip', 'ünïcødé']),
	Object.freeze([]),
];

const PRIORITIES = [
	['low', 2],
	['normal', 5],
	['high', 2],
	['urgent', 1],
] as const;
const STATUSES = [
	['open', 4],
	['pending', 2],
	['on_hold', 1],
	['solved', 2],
	['closed', 1],
] as const;

export interface SeedSummary {
	tickets: number;
	customers: number;
	replies: number;
}

export function seedStore(
	store: SandboxStore,
	ticketCount: number,
	randomSeed: number,
	nowMs: number,
): SeedSummary {
	if (!Number.isSafeInteger(ticketCount) || ticketCount < 0)
		throw new RangeError(`seed must be a non-negative integer, got ${ticketCount}`);
	const before = {
		tickets: store.ticketCount,
		customers: store.customerCount,
		replies: store.replyCount,
	};
	if (ticketCount === 0) return { tickets: 0, customers: 0, replies: 0 };

	const random = createRandom(randomSeed);
	const firstTicketAt = Math.floor(nowMs) - TICKET_SPAN_MS;
	const lastTicketAt = Math.floor(nowMs) - 60_000;
	const step = (lastTicketAt - firstTicketAt) / ticketCount;

	store.bulkLoad(() => {
		const customerCount = Math.max(1, Math.floor(ticketCount / 5));
		const customers: CustomerRecord[] = [];
		for (let i = 0; i < customerCount; i++) {
			const createdAt =
				firstTicketAt -
				CUSTOMER_SPAN_MS +
				Math.floor(((i + random()) * CUSTOMER_SPAN_MS) / customerCount);
			const custom: JsonObject | undefined =
				i % 4 === 0
					? { plan: pick(random, ['free', 'pro', 'enterprise']), phone: '+49 30 1234567' }
					: undefined;
			customers.push(
				store.insertSeedCustomer({
					email: `${EMAIL_LOCAL_PARTS[i % EMAIL_LOCAL_PARTS.length]}.${before.customers + i + 1}@example.com`,
					name: i % 9 === 8 ? null : CUSTOMER_NAMES[i % CUSTOMER_NAMES.length],
					createdAt,
					updatedAt: createdAt,
					custom,
				}),
			);
		}

		let sharedCreatedAt = firstTicketAt;
		for (let i = 0; i < ticketCount; i++) {
			// Each slot [i*step, (i+0.5)*step) keeps created_at non-decreasing in sequence order;
			// tickets 10k, 10k+1 and 10k+2 share the exact same millisecond.
			if (i % 10 === 0 || i % 10 > 2)
				sharedCreatedAt = Math.floor(firstTicketAt + i * step + random() * step * 0.5);
			const createdAt = sharedCreatedAt;
			const updatedAt =
				random() < 0.3 ? createdAt + Math.floor(random() * (lastTicketAt - createdAt)) : createdAt;
			const ticket = store.insertSeedTicket({
				subject: pick(random, SUBJECTS),
				description: pick(random, DESCRIPTIONS),
				priority: pickWeighted(random, PRIORITIES),
				status: pickWeighted(random, STATUSES),
				customer: customers[Math.floor(random() * customers.length)],
				createdAt,
				updatedAt,
				custom: customFieldsFor(i, random()),
			});
			if (ticket.seq % 7 === 0) {
				const replyCount = randomInt(random, 1, 3);
				for (let r = 0; r < replyCount; r++) {
					store.insertSeedReply(ticket, {
						body: pick(random, REPLY_BODIES),
						createdAt: createdAt + Math.floor(random() * (lastTicketAt - createdAt)),
						custom: r === 0 ? { author: 'agent' } : undefined,
					});
				}
			}
		}
	});

	return {
		tickets: store.ticketCount - before.tickets,
		customers: store.customerCount - before.customers,
		replies: store.replyCount - before.replies,
	};
}

function customFieldsFor(index: number, r: number): JsonObject | undefined {
	const tags = index % 4 === 0;
	const externalRef = index % 6 === 0;
	const nested = index % 25 === 0;
	if (!tags && !externalRef && !nested) return undefined;
	const custom: JsonObject = {};
	if (tags) custom.tags = TAG_SETS[Math.floor(r * TAG_SETS.length)];
	if (externalRef) custom.external_ref = `EXT-${100000 + index}`;
	if (nested) custom.custom = { channel: r < 0.5 ? 'email' : 'chat', score: Math.floor(r * 5) + 1 };
	return custom;
}
