/**
 * Command line: start the sandbox and keep it running until SIGINT/SIGTERM.
 *
 *   node build/sandbox/cli.js --port 4010 [--seed 250] [--key K --secret S]
 *                                  [--seed-random N] [--max-skew SECONDS] [--faults JSON]
 *                                  [--webhook URL ...] [--webhook-chaos JSON] [--driver JSON]
 *                                  [--idempotency-keys on] [--sort tickets|all|none]
 */
import { ADMIN_PREFIX } from './admin';
import { API_PREFIX } from './api';
import { validateChangeDriverOptions } from './changeDriver';
import { flagsTakenByNpm, portInUse } from './cliMistakes';
import { validateFaultOptions } from './faults';
import type { ListQuirks } from './listQuirks';
import { type SandboxOptions, startSandbox } from './server';
import { validateWebhookChaos } from './webhookChaos';

/** Tickets seeded when --seed is not given: enough to page through (3 pages of 100); --seed 0 for none. */
const DEFAULT_SEED = 250;

const USAGE = `Usage: node build/sandbox/cli.js [options]

  --port N          TCP port on 127.0.0.1 (default 4010; 0 picks a free port)
  --seed N          number of seeded tickets (default ${DEFAULT_SEED}; 0 for none)
  --seed-random N   PRNG seed of the seed data (default 1)
  --key K           API key (default sandbox-key)
  --secret S        API secret (default sandbox-secret)
  --max-skew N      accepted timestamp skew in seconds (default 300)
  --webhook URL     register a webhook receiving every event (repeatable)
  --webhook-chaos JSON  delivery chaos, e.g. '{"dropRate":0.1,"duplicateRate":0.1,"reorderWindow":5,"maxAttempts":5}'
  --driver JSON     start the change driver, e.g. '{"ratePerSecond":20,"durationMs":60000,"seed":7}'
  --faults JSON     initial faults, e.g. '{"rate429":0.1,"latencyMs":[5,50]}'
                    or '{"latencyMs":[25,35],"rateLimit":{"perSecond":20}}'
  --idempotency-keys on  honour Idempotency-Key on creates (a repeat gets the first answer)
  --sort WHERE      which lists honour sort_by and sort (default tickets; customers and replies
                    refuse them): all, or none (accepted and ignored, as some services do)
  --help            show this text`;

/** --sort: which lists honour sort_by and sort (Read From Both Ends falls back where they do not). */
const SORT_QUIRKS = {
	tickets: {},
	all: { pageListSort: 'honour' },
	none: { ignoreSortBy: true, pageListSort: 'ignore' },
} satisfies Record<string, ListQuirks>;

interface CliOptions {
	sandbox: SandboxOptions;
	listQuirks: ListQuirks;
	faults?: unknown;
	webhooks: string[];
	driver?: unknown;
}

function parseArguments(argv: string[]): CliOptions | 'help' {
	const sandbox: SandboxOptions = { port: 4010, seed: DEFAULT_SEED };
	let faults: unknown;
	let driver: unknown;
	const webhooks: string[] = [];
	let listQuirks: ListQuirks = {};
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		if (flag === '--help' || flag === '-h') return 'help';
		const value = argv[++i];
		if (value === undefined) throw new Error(`${flag} needs a value`);
		switch (flag) {
			case '--port':
				sandbox.port = integer(flag, value);
				break;
			case '--seed':
				sandbox.seed = integer(flag, value);
				break;
			case '--seed-random':
				sandbox.seedRandom = integer(flag, value);
				break;
			case '--key':
				sandbox.apiKey = value;
				break;
			case '--secret':
				sandbox.apiSecret = value;
				break;
			case '--max-skew':
				sandbox.maxSkewSeconds = integer(flag, value);
				break;
			case '--faults':
				faults = validateFaultOptions(JSON.parse(value) as unknown);
				break;
			case '--webhook':
				webhooks.push(value);
				break;
			case '--webhook-chaos':
				sandbox.webhookChaos = validateWebhookChaos(JSON.parse(value) as unknown);
				break;
			case '--idempotency-keys':
				if (value !== 'on' && value !== 'off')
					throw new Error(`${flag} must be on or off, got '${value}'`);
				sandbox.idempotencyKeys = value === 'on';
				break;
			case '--driver':
				driver = validateChangeDriverOptions(JSON.parse(value) as unknown);
				break;
			case '--sort':
				if (!(value in SORT_QUIRKS))
					throw new Error(`${flag} must be tickets, all or none, got '${value}'`);
				listQuirks = SORT_QUIRKS[value as keyof typeof SORT_QUIRKS];
				break;
			default:
				throw new Error(`unknown option ${flag}`);
		}
	}
	return { sandbox, listQuirks, faults, webhooks, driver };
}

function integer(flag: string, value: string): number {
	if (!/^[0-9]+$/.test(value))
		throw new Error(`${flag} must be a non-negative integer, got '${value}'`);
	return Number(value);
}

async function main(): Promise<void> {
	let options: CliOptions | 'help';
	try {
		const npmTook = flagsTakenByNpm(USAGE, process.argv.slice(2), process.env);
		if (npmTook !== undefined) throw new Error(npmTook);
		options = parseArguments(process.argv.slice(2));
	} catch (error) {
		console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
		process.exitCode = 2;
		return;
	}
	if (options === 'help') {
		console.log(USAGE);
		return;
	}

	const started = Date.now();
	const sandbox = await startSandbox(options.sandbox).catch((error: NodeJS.ErrnoException) => {
		if (error.code === 'EADDRINUSE') return undefined;
		throw error;
	});
	if (sandbox === undefined) {
		console.error(portInUse(options.sandbox.port ?? 4010));
		process.exitCode = 1;
		return;
	}
	sandbox.store.listQuirks = options.listQuirks;
	if (options.faults !== undefined) sandbox.setFaults(validateFaultOptions(options.faults));
	for (const url of options.webhooks) sandbox.addWebhook({ url });
	if (options.driver !== undefined)
		sandbox.startDriver(validateChangeDriverOptions(options.driver));
	// Before the banner: whoever waits for it may stop the sandbox at once.
	const shutdown = (signal: string): void => {
		console.log(`\n${signal}: stopping sandbox`);
		void sandbox.stop().then(() => {
			process.off('SIGINT', shutdown);
			process.off('SIGTERM', shutdown);
		});
	};
	process.on('SIGINT', shutdown);
	process.on('SIGTERM', shutdown);
	const admin = `${sandbox.baseUrl}${ADMIN_PREFIX}`;
	console.log(
		[
			`Support Ticket API sandbox ready in ${Date.now() - started} ms`,
			`  base URL   ${sandbox.baseUrl}   (API under ${API_PREFIX})`,
			`  API key    ${sandbox.apiKey}`,
			`  API secret ${sandbox.apiSecret}`,
			`  seeded     ${sandbox.seeded.tickets} tickets, ${sandbox.seeded.customers} customers, ${sandbox.seeded.replies} replies`,
			'Admin endpoints (no auth):',
			`  curl ${admin}/state`,
			`  curl ${admin}/log`,
			`  curl -X POST ${admin}/faults -d '{"rate429":0.2,"rate503":0.1,"latencyMs":[10,100]}'   ('{}' clears)`,
			`  curl -X POST ${admin}/faults -d '{"latencyMs":30,"rateLimit":{"perSecond":20}}'   (slow, rate-limited service)`,
			`  curl -X POST ${admin}/webhooks -d '{"url":"http://127.0.0.1:5678/webhook/x","events":["ticket.created"]}'`,
			`  curl -X POST ${admin}/webhooks/chaos -d '{"dropRate":0.1,"duplicateRate":0.1,"reorderWindow":5}'   ('{}' turns chaos off)`,
			`  curl ${admin}/webhooks/counters`,
			`  curl -X POST ${admin}/driver -d '{"ratePerSecond":20,"durationMs":60000}'   (curl ${admin}/driver for its summary)`,
			'Press Ctrl+C to stop.',
		].join('\n'),
	);
}

void main();
