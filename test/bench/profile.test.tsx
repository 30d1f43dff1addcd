import { type CpuProfile, summariseProfile } from '../../bench/profile';

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });

/**
 * root ─ sign (nodes/shared) ─ digest (native)
 *      ├ (garbage collector)
 *      ├ (idle)
 *      └ seedStore (sandbox) ─ createTicket (sandbox)
 * Sample i lasts timeDeltas[i + 1] µs.
 */
const profile: CpuProfile = {
	nodes: [
		{ id: 1, callFrame: frame('(root)', ''), children: [2, 4, 5, 6] },
		{ id: 2, callFrame: frame('signRequestOptions', 'file:///repo/dist/nodes/shared/signRequestOptions.js'), children: [3] },
		{ id: 3, callFrame: frame('digest', '') },
		{ id: 4, callFrame: frame('(garbage collector)', '') },
		{ id: 5, callFrame: frame('(idle)', '') },
		{ id: 6, callFrame: frame('seedStore', 'file:///repo/build/test/sandbox/seed.js'), children: [7] },
		{ id: 7, callFrame: frame('createTicket', 'file:///repo/build/test/sandbox/store.js') },
	],
	samples: [3, 3, 2, 4, 5, 7],
	timeDeltas: [0, 1000, 1000, 1000, 2000, 4000, 8000],
	startTime: 0,
	endTime: 17000,
};

describe('summariseProfile', () => {
	it('charges a native frame to its JavaScript caller, keeps GC apart and leaves idle out', () => {
		const summary = summariseProfile(profile);
		const category = (name: string) => summary.categories.find((c) => c.name.startsWith(name))?.ms;
		expect(category('signing')).toBe(3); // 2 ms in digest + 1 ms in signRequestOptions itself
		expect(category('garbage collection')).toBe(2);
		expect(category('sandbox')).toBe(8);
		expect(summary.idleMs).toBe(4);
		expect(summary.busyMs).toBe(13);
		expect(summary.functions.map((f) => f.name)).toContain('digest (native, from dist/nodes/shared/signRequestOptions.js)');
	});

	it('leaves out everything under an excluded frame (the sandbox seeding)', () => {
		const summary = summariseProfile(profile, { excludeThrough: (f) => f.functionName === 'seedStore' });
		expect(summary.busyMs).toBe(5);
		expect(summary.categories.some((c) => c.name.startsWith('sandbox'))).toBe(false);
	});
});
