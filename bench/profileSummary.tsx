/**
 * Self time from a V8 CPU profile (`.cpuprofile`, as written by `node --cpu-prof` or the
 * inspector's Profiler.stop), summed per function, per file and per cost category.
 *
 *   node build/bench/profileSummary.js <file.cpuprofile> [top]
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
	functionName: string;
	url: string;
	lineNumber: number;
}

export interface CpuProfile {
	nodes: Array<{ id: number; callFrame: CallFrame; children?: number[] }>;
	samples: number[];
	timeDeltas: number[];
	startTime: number;
	endTime: number;
}

export interface Cost {
	name: string;
	ms: number;
}

export interface ProfileSummary {
	/** Sampled time without (idle): what the process spent working or waiting in the VM. */
	busyMs: number;
	idleMs: number;
	categories: Cost[];
	files: Cost[];
	functions: Cost[];
}

/** Ordered: the first pattern that matches a frame names its category. */
const CATEGORIES: Array<[string, (fn: string, url: string) => boolean]> = [
	['garbage collection', (fn) => fn === '(garbage collector)'],
	['signing (nodes/shared, node:crypto)', (_fn, url) => /\/nodes\/shared\/|node:internal\/crypto/.test(url)],
	['JSON parse/stringify', (fn, url) => url === '' && /^(parse|stringify)$/.test(fn)],
	['package code (nodes/SupportTicket, credentials)', (_fn, url) => /\/(build|dist)\/(nodes|credentials)\//.test(url)],
	[
		"n8n's HTTP helper (@n8n/backend-network, axios, follow-redirects)",
		(_fn, url) => /node_modules\/(@n8n\/backend-network|axios|follow-redirects|form-data|proxy-from-env|combined-stream|mime-types)\//.test(url),
	],
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

export function categoryOf(functionName: string, url: string): string {
	return (CATEGORIES.find(([, test]) => test(functionName, url)) as [string, unknown])[0];
}

function shortFile(url: string): string {
	if (url === '') return '(native)';
	const modules = url.lastIndexOf('node_modules/');
	if (modules !== -1) return url.slice(modules + 'node_modules/'.length);
	const build = /\/(build|dist)\/(.*)$/.exec(url);
	return build ? `${build[1]}/${build[2]}` : url.replace(/^file:\/\//, '');
}

function sorted(map: Map<string, number>): Cost[] {
	return [...map].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}

function add(map: Map<string, number>, key: string, ms: number): void {
	map.set(key, (map.get(key) ?? 0) + ms);
}

/** VM entries that are costs of their own, not of whoever was running. */
const OWN_COST = /^\((garbage collector|program|idle|root)\)$/;

/**
 * Native frames (no url: socket writes, hashing, ...) are charged to the nearest caller with a
 * url, so a socket write counts as node http and a digest as signing. JSON.parse/stringify and
 * the VM's own entries keep their own name.
 */
function attributedFrames(profile: CpuProfile): Map<number, CallFrame> {
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
	const attributed = new Map<number, CallFrame>();
	const resolve = (id: number): CallFrame => {
		const known = attributed.get(id);
		if (known) return known;
		const frame = frames.get(id) as CallFrame;
		const up = parent.get(id);
		const own = frame.url !== '' || OWN_COST.test(frame.functionName) || /^(parse|stringify)$/.test(frame.functionName) || up === undefined;
		const result = own ? frame : resolve(up);
		attributed.set(id, result);
		return result;
	};
	for (const node of profile.nodes) resolve(node.id);
	return attributed;
}

/** Ids of the nodes at or below a frame that `through` matches (e.g. the sandbox's seeding). */
function nodesThrough(profile: CpuProfile, through: (frame: CallFrame) => boolean): Set<number> {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const marked = new Set<number>();
	const mark = (id: number): void => {
		marked.add(id);
		for (const child of byId.get(id)?.children ?? []) mark(child);
	};
	for (const node of profile.nodes) if (!marked.has(node.id) && through(node.callFrame)) mark(node.id);
	return marked;
}

export interface SummaryOptions {
	/** Leave out samples whose charged frame matches (e.g. to look at one category). */
	skip?: (functionName: string, url: string) => boolean;
	/** Leave out every sample taken inside a frame that matches, with all it called. */
	excludeThrough?: (frame: CallFrame) => boolean;
}

export function summariseProfile(profile: CpuProfile, options: SummaryOptions = {}): ProfileSummary {
	const skip = options.skip ?? (() => false);
	const excluded = options.excludeThrough ? nodesThrough(profile, options.excludeThrough) : new Set<number>();
	const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
	const charged = attributedFrames(profile);
	const selfMs = new Map<number, number>();
	// timeDeltas[i] is the time before sample i; the time after it (delta i+1) was spent in it.
	for (let i = 0; i < profile.samples.length; i++) {
		const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
		selfMs.set(profile.samples[i], (selfMs.get(profile.samples[i]) ?? 0) + ms);
	}
	const categories = new Map<string, number>();
	const files = new Map<string, number>();
	const functions = new Map<string, number>();
	let busyMs = 0;
	let idleMs = 0;
	for (const [id, ms] of selfMs) {
		const frame = byId.get(id);
		if (!frame || excluded.has(id)) continue;
		const { functionName, url, lineNumber } = frame;
		if (functionName === '(idle)') {
			idleMs += ms;
			continue;
		}
		const owner = charged.get(id) ?? frame;
		if (skip(owner.functionName, owner.url)) continue;
		busyMs += ms;
		add(categories, categoryOf(owner.functionName, owner.url), ms);
		add(files, shortFile(owner.url), ms);
		const where = url ? `${shortFile(url)}:${lineNumber + 1}` : owner === frame ? '(native)' : `(native, from ${shortFile(owner.url)})`;
		add(functions, `${functionName || '(anonymous)'} ${where}`, ms);
	}
	return { busyMs, idleMs, categories: sorted(categories), files: sorted(files), functions: sorted(functions) };
}

export function formatSummary(summary: ProfileSummary, top = 15): string {
	const pct = (ms: number): string => `${((100 * ms) / summary.busyMs).toFixed(1)}%`;
	const table = (title: string, rows: Cost[]): string =>
		[`| ${title} | self ms | share |`, '|---|---:|---:|', ...rows.slice(0, top).map((r) => `| ${r.name.replace(/\|/g, '\\|')} | ${r.ms.toFixed(0)} | ${pct(r.ms)} |`)].join('\n');
	return [
		`Busy ${summary.busyMs.toFixed(0)} ms (idle ${summary.idleMs.toFixed(0)} ms not counted).`,
		'',
		table('category', summary.categories),
		'',
		table('file', summary.files),
		'',
		table('function', summary.functions),
	].join('\n');
}

if (require.main === module) {
	const [file, top] = process.argv.slice(2);
	if (!file) {
		console.error('usage: node build/bench/profileSummary.js <file.cpuprofile> [top]');
		process.exitCode = 2;
	} else {
		console.log(formatSummary(summariseProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile), Number(top ?? 15)));
	}
}
