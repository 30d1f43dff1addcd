/** What a reader needs to judge absolute numbers: the machine, the runtimes, how busy it was. */
import { readFileSync } from 'node:fs';
import os from 'node:os';

import { repoPath } from '../test/harness/repoPath';

export interface MachineFacts {
	cpu: string;
	cores: number;
	memoryGb: number;
	os: string;
	node: string;
	packages: Record<string, string>;
}

function installedVersion(name: string): string {
	try {
		return (JSON.parse(readFileSync(repoPath('node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
	} catch {
		return 'not installed';
	}
}

export function machineFacts(): MachineFacts {
	const cpus = os.cpus();
	return {
		cpu: cpus[0]?.model.trim() ?? 'unknown',
		cores: cpus.length,
		memoryGb: os.totalmem() / 2 ** 30,
		os: `${os.type()} ${os.release()} ${os.arch()}`,
		node: process.version,
		packages: Object.fromEntries(['n8n-core', 'n8n-workflow', 'undici', 'axios', 'typescript'].map((name) => [name, installedVersion(name)])),
	};
}

/** 1-, 5- and 15-minute load averages, formatted. */
export function loadAverage(): string {
	return os
		.loadavg()
		.map((load) => load.toFixed(2))
		.join(' / ');
}
