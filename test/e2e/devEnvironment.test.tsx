import { startSeededSandbox } from './devEnvironment';

describe('startSeededSandbox', () => {
	it('two environments started at once each get a sandbox (4010 is taken by one, or by something else)', async () => {
		const started = await Promise.allSettled([startSeededSandbox(1), startSeededSandbox(1)]);
		const sandboxes = started.flatMap((result) =>
			result.status === 'fulfilled' ? [result.value] : [],
		);
		await Promise.all(sandboxes.map((sandbox) => sandbox.stop()));
		expect(
			started.map((result) => (result.status === 'rejected' ? String(result.reason) : 'started')),
		).toEqual(['started', 'started']);
		expect(new Set(sandboxes.map((sandbox) => sandbox.baseUrl)).size).toBe(2);
	});
});
