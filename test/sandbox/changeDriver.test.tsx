import { spawn } from 'node:child_process';
import path from 'node:path';
import { waitUntil } from '../harness/wait';
import { CHANGE_KINDS, type ChangeDriverSummary, type Sandbox, startSandbox, type Ticket } from '../../sandbox';
import { expectRefusedSettings, TestClient } from './testClient';
import { startRecordingReceiver, type RecordingReceiver } from './recordingReceiver';
import { LOAD_TYPESCRIPT } from '../harness/typeScriptNode';

describe('sandbox change driver', () => {
	const fixedNow = Date.parse('2025-06-01T12:00:00.000Z');
	const sandboxes: Sandbox[] = [];
	const receivers: RecordingReceiver[] = [];
	const start = async (seed = 50): Promise<{ sandbox: Sandbox; receiver: RecordingReceiver }> => {
		const sandbox = await startSandbox({ seed, now: () => fixedNow });
		const receiver = await startRecordingReceiver();
		sandboxes.push(sandbox);
		receivers.push(receiver);
		sandbox.addWebhook({ url: receiver.url });
		return { sandbox, receiver };
	};

	afterEach(async () => {
		await Promise.all(sandboxes.splice(0).map((s) => s.stop()));
		await Promise.all(receivers.splice(0).map((r) => r.close()));
	});

	it('makes `count` changes of every kind; each is one webhook event carrying the changed resource', async () => {
		const { sandbox, receiver } = await start();
		const before = { tickets: sandbox.store.ticketCount, customers: sandbox.store.customerCount, replies: sandbox.store.replyCount };
		const summary = await sandbox.startDriver({ ratePerSecond: 1000, count: 300, seed: 2 }).finished;
		await sandbox.webhooksIdle();

		expect(summary).toMatchObject({ running: false, total: 300, errors: 0 });
		for (const kind of CHANGE_KINDS) expect(summary.byKind[kind]).toBeGreaterThan(10);
		expect(sandbox.store.ticketCount).toBe(before.tickets + summary.byKind['ticket.created']);
		expect(sandbox.store.customerCount).toBe(before.customers + summary.byKind['customer.created']);
		expect(sandbox.store.replyCount).toBe(before.replies + summary.byKind['reply.created']);
		const events = receiver.received.map((d) => d.payload);
		expect(events).toHaveLength(300);
		for (const kind of CHANGE_KINDS) expect(events.filter((e) => e.event === kind)).toHaveLength(summary.byKind[kind]);
		// The last ticket event of each ticket carries the ticket's own fields as they are now.
		const lastTicketEvent = new Map<string, Ticket>();
		for (const e of events) if (e.event.startsWith('ticket.')) lastTicketEvent.set((e.data as Ticket).id, e.data as Ticket);
		expect(lastTicketEvent.size).toBeGreaterThan(10);
		const own = (t: Ticket | undefined): unknown[] => [t?.id, t?.subject, t?.status, t?.priority];
		for (const [id, data] of lastTicketEvent) expect(own(data)).toEqual(own(sandbox.store.getTicket(id)));
		expect(summary.touched.tickets).toBeGreaterThan(0);
		expect(summary.lastChangeAt).toBe(new Date(fixedNow).toISOString());
	});

	it('is seeded: the same seed over the same data makes the same changes', async () => {
		const runs: string[][] = [];
		for (const seed of [8, 8, 9]) {
			const { sandbox, receiver } = await start();
			await sandbox.startDriver({ ratePerSecond: 1000, count: 80, seed }).finished;
			await sandbox.webhooksIdle();
			runs.push(receiver.received.map((d) => `${d.payload.event} ${JSON.stringify(d.payload.data)}`));
		}
		expect(runs[1]).toEqual(runs[0]);
		expect(runs[2]).not.toEqual(runs[0]);
	});

	it('stops on request, makes no change afterwards, and allows one driver at a time', async () => {
		const { sandbox } = await start();
		const driver = sandbox.startDriver({ ratePerSecond: 50 });
		expect(() => sandbox.startDriver()).toThrow(/already running/);
		await waitUntil('the first change', () => (driver.summary().total > 0 ? true : undefined), 30_000, { intervalMs: 5 });
		const summary = await driver.stop();
		expect(summary.running).toBe(false);
		expect(summary.total).toBeGreaterThan(0);
		await expect(sandbox.startDriver({ count: 1 }).finished).resolves.toMatchObject({ running: false, total: 1 });
	});

	it('is driven over the admin API: start, 409 while running, summary, wait, stop; bad options are 400', async () => {
		const { sandbox } = await start();
		const client = new TestClient(sandbox.baseUrl);
		try {
			expect((await client.raw('GET', '/__sandbox/driver')).status).toBe(404);
			const started = await client.raw('POST', '/__sandbox/driver', '{"ratePerSecond":200,"count":20,"seed":3}');
			expect(started.status).toBe(201);
			expect(started.json).toMatchObject({ data: { running: true, options: { ratePerSecond: 200, count: 20, seed: 3 } } });
			expect((await client.raw('POST', '/__sandbox/driver', '{}')).status).toBe(409);
			const waited = (await client.raw('GET', '/__sandbox/driver/wait?timeoutMs=10000')).json as { data: ChangeDriverSummary };
			expect(waited.data).toMatchObject({ running: false, total: 20 });
			expect(((await client.raw('GET', '/__sandbox/state')).json as { data: { driver: ChangeDriverSummary } }).data.driver.total).toBe(20);

			expect((await client.raw('POST', '/__sandbox/driver', '{"ratePerSecond":5}')).status).toBe(201);
			const stopped = (await client.raw('POST', '/__sandbox/driver/stop')).json as { data: ChangeDriverSummary };
			expect(stopped.data.running).toBe(false);
			await expectRefusedSettings(client, '/__sandbox/driver', [
				['{"ratePerSecond":0}', 'ratePerSecond must be'],
				['{"mix":{"ticket.deleted":1}}', 'unknown change kind in mix: ticket.deleted'],
				['{"rate":5}', 'unknown driver option(s): rate'],
			]);
		} finally {
			client.close();
		}
	});

	it('runs from the CLI with a webhook, chaos and the driver, and stops cleanly on SIGTERM', async () => {
		let tenArrived: () => void = () => undefined;
		const ten = new Promise<void>((resolve) => (tenArrived = resolve));
		let count = 0;
		const receiver = await startRecordingReceiver(() => {
			if (++count === 10) tenArrived();
			return 200;
		});
		receivers.push(receiver);
		const cli = spawn(
			process.execPath,
			[
				...LOAD_TYPESCRIPT,
				path.join(__dirname, '../../sandbox/cli.tsx'),
				'--port',
				'0',
				'--seed',
				'10',
				'--webhook',
				receiver.url,
				'--webhook-chaos',
				'{"duplicateRate":1}',
				'--driver',
				'{"ratePerSecond":100,"count":5}',
			],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let output = '';
		cli.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		cli.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const exited = new Promise<number | null>((resolve) => cli.on('exit', resolve));
		try {
			await ten;
			expect(receiver.received).toHaveLength(10); // 5 changes, each delivered twice
			expect(output).toContain('/__sandbox/driver');
		} finally {
			cli.kill('SIGTERM');
		}
		expect(await exited).toBe(0);
	});
});
