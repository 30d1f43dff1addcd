import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** A tool node-gyp needs to build sqlite3, found when any of `commands` is on PATH. */
export interface BuildTool {
	name: string;
	commands: string[];
}

/** What node-gyp needs to build sqlite3 from source (n8n installs without its prebuilt download). */
export function requiredBuildTools(
	platform: NodeJS.Platform,
	env: NodeJS.ProcessEnv = {},
): BuildTool[] {
	// node-gyp takes the Python that npm_config_python or PYTHON names before looking on PATH.
	const python = env.npm_config_python || env.PYTHON;
	const pythonCommands = python
		? [python]
		: platform === 'win32'
			? ['python3', 'python', 'py']
			: ['python3', 'python'];
	if (platform === 'win32') {
		// node-gyp finds MSVC through vswhere, which comes with any Visual Studio (Build Tools) install.
		return [
			{ name: 'Python 3', commands: pythonCommands },
			{ name: 'Visual Studio Build Tools (C/C++)', commands: ['cl', 'vswhere'] },
		];
	}
	return [
		{ name: 'Python 3', commands: pythonCommands },
		{ name: 'make', commands: ['make', 'gmake'] },
		{ name: 'a C compiler', commands: env.CC ? [env.CC] : ['cc', 'gcc', 'clang'] },
		{ name: 'a C++ compiler', commands: env.CXX ? [env.CXX] : ['c++', 'g++', 'clang++'] },
	];
}

const INSTALL_HINTS: Partial<Record<NodeJS.Platform, string>> = {
	linux:
		'Debian/Ubuntu: sudo apt-get install -y python3 make g++ · Fedora: sudo dnf install -y python3 make gcc-c++ · Alpine: apk add python3 make g++',
	darwin: 'xcode-select --install (the Xcode Command Line Tools: make, clang, Python 3)',
	win32:
		'Python 3 (python.org or winget install Python.Python.3.12) and Visual Studio Build Tools with "Desktop development with C++" (winget install Microsoft.VisualStudio.2022.BuildTools)',
};

/** The tools of `required` that `isOnPath` does not find. */
export function missingBuildTools(
	required: BuildTool[],
	isOnPath: (command: string) => boolean,
): BuildTool[] {
	return required.filter((tool) => !tool.commands.some(isOnPath));
}

/** What to tell a user whose machine lacks `missing`: what, why, and how to install it here. */
export function buildToolsMessage(platform: NodeJS.Platform, missing: BuildTool[]): string {
	const hint =
		INSTALL_HINTS[platform] ?? "your system's packages for Python 3, make and a C/C++ compiler";
	return [
		`Missing ${missing.map((tool) => `${tool.name} (${tool.commands.join(', ')})`).join(', ')}.`,
		'Installing n8n builds its sqlite3 module from source with node-gyp, which needs Python 3, make and a C/C++ compiler.',
		`Install them, then run this again: ${hint}.`,
	].join('\n');
}

/** Whether `command` (a name, or a path) is an executable file on PATH (with PATHEXT's endings on Windows). */
export function isOnPath(
	command: string,
	env: NodeJS.ProcessEnv = process.env,
	platform: NodeJS.Platform = process.platform,
): boolean {
	const endings =
		platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
	const folders = path.isAbsolute(command)
		? ['']
		: (env.PATH ?? '').split(path.delimiter).filter(Boolean);
	if (platform === 'win32' && command === 'vswhere') {
		folders.push(
			path.join(
				env['ProgramFiles(x86)'] ?? 'C:\\Program Files (x86)',
				'Microsoft Visual Studio',
				'Installer',
			),
		);
	}
	return folders.some((folder) =>
		endings.some((ending) => {
			try {
				accessSync(path.join(folder, command + ending), constants.X_OK);
				return true;
			} catch {
				return false;
			}
		}),
	);
}

/** macOS's /usr/bin make, cc and python3 are stubs without the Command Line Tools (`xcode-select -p` fails): not counted. */
function withoutMacStubs(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
	if (spawnSync('xcode-select', ['-p'], { stdio: 'ignore' }).status === 0) return env;
	const folders = (env.PATH ?? '')
		.split(path.delimiter)
		.filter((folder) => path.resolve(folder) !== '/usr/bin');
	return { ...env, PATH: folders.join(path.delimiter) };
}

/** Fails at once, saying what to install, where a long n8n install would fail at its sqlite3 build. */
export function checkBuildTools(
	platform: NodeJS.Platform = process.platform,
	env: NodeJS.ProcessEnv = process.env,
): void {
	const searched = platform === 'darwin' ? withoutMacStubs(env) : env;
	const missing = missingBuildTools(requiredBuildTools(platform, env), (command) =>
		isOnPath(command, searched, platform),
	);
	if (missing.length > 0) throw new Error(buildToolsMessage(platform, missing));
}
