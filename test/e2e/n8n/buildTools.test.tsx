import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	buildToolsMessage,
	checkBuildTools,
	isOnPath,
	missingBuildTools,
	requiredBuildTools,
} from './buildTools';

describe('the build tools an n8n install needs (sqlite3 from source)', () => {
	it('names Python 3, make and C/C++ compilers on Linux and macOS, and honours PYTHON, CC and CXX', () => {
		expect(requiredBuildTools('linux').map((tool) => tool.name)).toEqual([
			'Python 3',
			'make',
			'a C compiler',
			'a C++ compiler',
		]);
		const custom = requiredBuildTools('darwin', {
			PYTHON: '/opt/py/bin/python3',
			CC: 'clang-18',
			CXX: 'clang++-18',
		});
		expect(custom.map((tool) => tool.commands)).toEqual([
			['/opt/py/bin/python3'],
			['make', 'gmake'],
			['clang-18'],
			['clang++-18'],
		]);
	});

	it('names Python 3 and Visual Studio Build Tools on Windows', () => {
		expect(requiredBuildTools('win32').map((tool) => tool.name)).toEqual([
			'Python 3',
			'Visual Studio Build Tools (C/C++)',
		]);
	});

	it('a tool counts as present when any of its commands is', () => {
		const found = new Set(['python', 'make', 'clang']);
		expect(
			missingBuildTools(requiredBuildTools('linux'), (command) => found.has(command)).map(
				(tool) => tool.name,
			),
		).toEqual(['a C++ compiler']);
	});

	it('the message says what is missing, why, and what to install on this platform', () => {
		const missing = requiredBuildTools('linux').slice(1, 2);
		expect(buildToolsMessage('linux', missing)).toBe(
			[
				'Missing make (make, gmake).',
				'Installing n8n builds its sqlite3 module from source with node-gyp, which needs Python 3, make and a C/C++ compiler.',
				'Install them, then run this again: Debian/Ubuntu: sudo apt-get install -y python3 make g++ · Fedora: sudo dnf install -y python3 make gcc-c++ · Alpine: apk add python3 make g++.',
			].join('\n'),
		);
		expect(buildToolsMessage('darwin', missing)).toContain('xcode-select --install');
		expect(buildToolsMessage('win32', requiredBuildTools('win32'))).toContain(
			'Visual Studio Build Tools with "Desktop development with C++"',
		);
		expect(buildToolsMessage('freebsd', missing)).toContain(
			"your system's packages for Python 3, make and a C/C++ compiler",
		);
	});

	describe('on PATH', () => {
		let folder: string;
		beforeAll(() => {
			folder = mkdtempSync(path.join(tmpdir(), 'build-tools-'));
			writeFileSync(path.join(folder, 'runnable'), '#!/bin/sh\n');
			chmodSync(path.join(folder, 'runnable'), 0o755);
			writeFileSync(path.join(folder, 'plain'), 'not executable');
		});
		afterAll(() => rmSync(folder, { recursive: true, force: true }));

		it('finds executables only', () => {
			const env = { PATH: folder };
			expect(isOnPath('runnable', env, 'linux')).toBe(true);
			expect(isOnPath('plain', env, 'linux')).toBe(false);
			expect(isOnPath('absent', env, 'linux')).toBe(false);
			expect(isOnPath(path.join(folder, 'runnable'), {}, 'linux')).toBe(true);
		});

		it('checkBuildTools stops before any download with the message', () => {
			expect(() => checkBuildTools('linux', { PATH: folder })).toThrow(
				/^Missing Python 3 \(python3, python\), make \(make, gmake\), a C compiler/,
			);
			expect(() =>
				checkBuildTools('linux', {
					PATH: folder,
					PYTHON: 'runnable',
					CC: 'runnable',
					CXX: 'runnable',
				}),
			).toThrow(/^Missing make \(make, gmake\)\.\n/);
		});
	});
});
