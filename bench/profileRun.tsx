/**
 * One profiled Return All on each side of the comparison, plus the sandbox process profiled for
 * its whole life (its seeding left out), to see where the time goes. Profiling slows everything
 * down, so these runs only give shares, never the figures of the comparison.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { forkMeasurement, type Measurement } from './forkMeasurement';
import type { Side } from './measureTraversal';
import { type CpuProfile, type ProfileSummary, summariseProfile } from './profileSummary';
import { startSandboxProcess } from './sandboxProcess';

export interface ProfiledRun {
	side: Side;
	measurement: Measurement;
	summary: ProfileSummary;
}

export interface ProfileReport {
	tickets: number;
	runs: ProfiledRun[];
	/** The sandbox process over the same runs (and their warm-ups), seeding excluded. */
	sandbox: ProfileSummary;
}

const SEEDING = (frame: { functionName: string; url: string }): boolean => frame.functionName === 'seedStore' || /\/sandbox\/seed\.js$/.test(frame.url);

export async function profileRun(tickets: number, sides: Side[]): Promise<ProfileReport> {
	const dir = mkdtempSync(path.join(tmpdir(), 'support-ticket-bench-profile-'));
	try {
		const sandbox = await startSandboxProcess({ seed: tickets, execArgv: ['--cpu-prof', '--cpu-prof-dir', path.join(dir, 'sandbox')] });
		const target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret };
		const runs: ProfiledRun[] = [];
		try {
			for (const side of sides) {
				const profilePath = path.join(dir, `${side}.cpuprofile`);
				const measurement = await forkMeasurement({ side, target, profilePath }, sandbox);
				runs.push({ side, measurement, summary: summariseProfile(readProfile(profilePath)) });
			}
		} finally {
			await sandbox.stop();
		}
		const [sandboxFile] = readdirSync(path.join(dir, 'sandbox'));
		if (!sandboxFile) throw new Error('the sandbox wrote no CPU profile');
		const sandboxSummary = summariseProfile(readProfile(path.join(dir, 'sandbox', sandboxFile)), { excludeThrough: SEEDING });
		return { tickets, runs, sandbox: sandboxSummary };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

function readProfile(file: string): CpuProfile {
	return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}
