/**
 * Where the time goes: one profiled Return All per side, plus the sandbox process profiled for its
 * whole life (its seeding left out). Self time from a V8 CPU profile, summed per function, per
 * file and per cost category. Profiling slows everything down, so only the shares count.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startSandboxProcess } from './sandboxProcess';
import { type Measurement, measureTraversal, type Side } from './traversal';

type CallFrame = { functionName: string; url: string; lineNumber: number };
/** As written by `node --cpu-prof` or the inspector's Profiler.stop. */
export type CpuProfile = { nodes: Array<{ id: number; callFrame: CallFrame; children?: number[] }>; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };
export type Cost = { name: string; ms: number };
/** `busyMs`: sampled time without (idle). */
export type ProfileSummary = { busyMs: number; idleMs: number; categories: Cost[]; files: Cost[]; functions: Cost[] };

/** Ordered: the first pattern that matches a frame names its category. */
const CATEGORIES: Array<[string, (fn: string, url: string) => boolean]> = [
	['garbage collection', (fn) => fn === '(garbage collector)'],
	['signing (nodes/shared, node:crypto)', (_fn, url) => /\/nodes\/shared\/|node:internal\/crypto/.test(url)],
	['JSON parse/stringify', (fn, url) => url === '' && /^(parse|stringify)$/.test(fn)],
	['package code (nodes/SupportTicket, credentials)', (_fn, url) => /\/(build|dist)\/(nodes|credentials)\//.test(url)],
	["n8n's HTTP helper (@n8n/backend-network, axios, follow-redirects)", (_fn, url) => /node_modules\/(@n8n\/backend-network|axios|follow-redirects|form-data|proxy-from-env|combined-stream|mime-types)\//.test(url)],
	['n8n engine (n8n-core, n8n-workflow)', (_fn, url) => /node_modules\/(n8n-core|n8n-workflow|@n8n)\//.test(url)],
	['undici', (_fn, url) => /node_modules\/undici\/|node:internal\/deps\/undici/.test(url)],
	['node http/net/streams', (_fn, url) => /node:(_http|http|https|net|_stream|stream|internal\/(streams|http|net|stream_base|js_stream|timers|url|buffer|events))/.test(url) || /^node:(url|events|buffer|zlib|timers)$/.test(url)],
	['sandbox (test/sandbox)', (_fn, url) => /\/test\/sandbox\//.test(url)],
	['test harness', (_fn, url) => /\/test\/harness\//.test(url)],
	['other node_modules', (_fn, url) => url.includes('node_modules/')],
	['V8/native (program)', (fn) => fn === '(program)'],
	['other node internals', (_fn, url) => url.startsWith('node:')],
	['other', () => true],
];

function shortFile(url: string): string {
	if (url === '') return '(native)';
	const modules = url.lastIndexOf('node_modules/');
	if (modules !== -1) return url.slice(modules + 'node_modules/'.length);
	const build = /\/(build|dist)\/(.*)$/.exec(url);
	return build ? `${build[1]}/${build[2]}` : url.replace(/^file:\/\//, '');
}

/**
 * Native frames (no url: socket writes, hashing, ...) are charged to the nearest caller with a url,
 * so a socket write counts as node http and a digest as signing; JSON.parse/stringify and the VM's
 * own entries keep their own name. `excludeThrough` leaves out every sample inside a matching frame.
 */
export function summariseProfile(profile: CpuProfile, options: { excludeThrough?: (frame: CallFrame) => boolean } = {}): ProfileSummary {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	// From the root down: the frame each node's samples are charged to; none when excluded.
	const chargedTo = new Map<number, CallFrame | undefined>();
	const visit = (id: number, caller: CallFrame | undefined, excluded: boolean): void => {
		const node = byId.get(id);
		if (!node) return;
		const out = excluded || (options.excludeThrough?.(node.callFrame) ?? false);
		const own = node.callFrame.url !== '' || /^\((garbage collector|program|idle|root)\)$|^(parse|stringify)$/.test(node.callFrame.functionName) || !caller;
		const owner = own ? node.callFrame : caller;
		chargedTo.set(id, out ? undefined : owner);
		for (const child of node.children ?? []) visit(child, owner, out);
	};
	visit(profile.nodes[0]?.id, undefined, false);
	const sums = { categories: new Map<string, number>(), files: new Map<string, number>(), functions: new Map<string, number>() };
	const add = (map: Map<string, number>, key: string, ms: number): void => void map.set(key, (map.get(key) ?? 0) + ms);
	let [busyMs, idleMs] = [0, 0];
	// timeDeltas[i] is the time before sample i; the time after it (delta i+1) was spent in it.
	profile.samples.forEach((id, i) => {
		const [frame, owner, ms] = [byId.get(id)?.callFrame, chargedTo.get(id), (profile.timeDeltas[i + 1] ?? 0) / 1000];
		if (!frame || !owner) return;
		if (frame.functionName === '(idle)') return void (idleMs += ms);
		busyMs += ms;
		add(sums.categories, (CATEGORIES.find(([, test]) => test(owner.functionName, owner.url)) as [string, unknown])[0], ms);
		add(sums.files, shortFile(owner.url), ms);
		const where = frame.url ? `${shortFile(frame.url)}:${frame.lineNumber + 1}` : owner === frame ? '(native)' : `(native, from ${shortFile(owner.url)})`;
		add(sums.functions, `${frame.functionName || '(anonymous)'} ${where}`, ms);
	});
	const sorted = (map: Map<string, number>): Cost[] => [...map].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
	return { busyMs, idleMs, categories: sorted(sums.categories), files: sorted(sums.files), functions: sorted(sums.functions) };
}

/** `sandbox`: the sandbox process over the same runs (and their warm-ups), seeding excluded. */
export type ProfileReport = { runs: Array<{ side: Side; measurement: Measurement; summary: ProfileSummary }>; sandbox: ProfileSummary };

const readProfile = (file: string): CpuProfile => JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

export async function profileRun(tickets: number, sides: Side[]): Promise<ProfileReport> {
	const dir = mkdtempSync(path.join(tmpdir(), 'support-ticket-bench-profile-'));
	try {
		const sandbox = await startSandboxProcess({ seed: tickets, execArgv: ['--cpu-prof', '--cpu-prof-dir', path.join(dir, 'sandbox')] });
		const runs: ProfileReport['runs'] = [];
		try {
			for (const side of sides) {
				const profilePath = path.join(dir, `${side}.cpuprofile`);
				const measurement = await measureTraversal({ side, target: sandbox.target }, sandbox, 1, profilePath);
				runs.push({ side, measurement, summary: summariseProfile(readProfile(profilePath)) });
			}
		} finally {
			await sandbox.stop();
		}
		const [sandboxFile] = readdirSync(path.join(dir, 'sandbox'));
		if (!sandboxFile) throw new Error('the sandbox wrote no CPU profile');
		const seeding = (frame: CallFrame): boolean => frame.functionName === 'seedStore' || /\/sandbox\/seed\.js$/.test(frame.url);
		return { runs, sandbox: summariseProfile(readProfile(path.join(dir, 'sandbox', sandboxFile)), { excludeThrough: seeding }) };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
