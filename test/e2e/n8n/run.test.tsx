import { runCommand } from './run';

describe('runCommand', () => {
	it('keeps all a command printed right before process.exit() (n8n execute prints its run, then exits)', async () => {
		const size = 1 << 24;
		const result = await runCommand(process.execPath, [
			'-e',
			`process.stdout.write('x'.repeat(${size})); process.exit(0)`,
		]);
		expect(result.code).toBe(0);
		expect(result.stdout.length).toBe(size);
	});
});
