import { Console } from 'node:console';
import { Writable } from 'node:stream';

import type { Circus } from '@jest/types';
import { TestEnvironment } from 'jest-environment-node';

/** The most lines a failing test shows; a test that logs on every request keeps its last ones. */
const MAX_LINES = 200;

// The console held back (n8n's logger writes through it): shown with a failing test only.
// `npx jest --testEnvironment node` shows every line.
export default class QuietEnvironment extends TestEnvironment {
	private lines: string[] = [];
	private count = 0;

	async setup(): Promise<void> {
		await super.setup();
		const sink = new Writable({
			write: (chunk: Buffer, _encoding, done) => {
				const lines = String(chunk).replace(/\n$/, '').split('\n');
				this.lines.push(...lines);
				this.count += lines.length;
				if (this.lines.length > MAX_LINES * 2) this.lines.splice(0, this.lines.length - MAX_LINES);
				done();
			},
		});
		this.global.console = new Console({ stdout: sink, stderr: sink });
	}

	async handleTestEvent(event: Circus.Event): Promise<void> {
		if (event.name !== 'test_done') return;
		if (event.test.errors.length > 0 && this.lines.length > 0)
			event.test.errors.push(logged(this.lines, this.count));
		this.lines = [];
		this.count = 0;
	}
}

function logged(lines: string[], count: number): Error {
	const shown = lines.slice(-MAX_LINES);
	const left = count > shown.length ? ` (the last ${shown.length} of ${count} lines)` : '';
	const error = new Error(`Logged during this test${left}:\n${shown.join('\n')}`);
	error.stack = error.message;
	return error;
}
