import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

const INSTALL_HINTS: Partial<Record<NodeJS.Platform, string>> = {
	linux:
		'Debian/Ubuntu: sudo apt-get install -y python3 make g++ · Fedora: sudo dnf install -y python3 make gcc-c++ · Alpine: apk add python3 make g++',
	darwin: 'xcode-select --install (the Xcode Command Line Tools: make, clang, Python 3)',
	win32:
		'Python 3 (python.org or winget install Python.Python.3.12) and Visual Studio Build Tools with "Desktop development with C++" (winget install Microsoft.VisualStudio.2022.BuildTools)',
};

/** Whether `command` (a name, or a path) is an executable file on PATH (with PATHEXT's endings on Windows). */
function isOnPath(command: string, env: NodeJS.ProcessEnv): boolean {
	const windows = process.platform === 'win32';
	const endings = windows ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
	const folders = path.isAbsolute(command)
		? ['']
		: (env.PATH ?? '').split(path.delimiter).filter(Boolean);
	if (windows && command === 'vswhere')
		folders.push(
			path.join(
				env['ProgramFiles(x86)'] ?? 'C:\\Program Files (x86)',
				'Microsoft Visual Studio',
				'Installer',
			),
		);
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

// Fails at once, saying what to install, where a long n8n install would fail at its sqlite3 build (node-gyp: Python 3,
// make and a C/C++ compiler; on Windows Visual Studio Build Tools, found through vswhere).
export function checkBuildTools(env: NodeJS.ProcessEnv = process.env): void {
	const platform = process.platform;
	const python = env.npm_config_python || env.PYTHON;
	const required: Array<[string, string[]]> = [
		[
			'Python 3',
			python ? [python] : ['python3', 'python', ...(platform === 'win32' ? ['py'] : [])],
		],
		...(platform === 'win32'
			? ([['Visual Studio Build Tools (C/C++)', ['cl', 'vswhere']]] as Array<[string, string[]]>)
			: ([
					['make', ['make', 'gmake']],
					['a C compiler', env.CC ? [env.CC] : ['cc', 'gcc', 'clang']],
					['a C++ compiler', env.CXX ? [env.CXX] : ['c++', 'g++', 'clang++']],
				] as Array<[string, string[]]>)),
	];
	// macOS's /usr/bin make, cc and python3 are stubs without the Command Line Tools (`xcode-select -p` fails).
	const searched =
		platform === 'darwin' && spawnSync('xcode-select', ['-p'], { stdio: 'ignore' }).status !== 0
			? {
					...env,
					PATH: (env.PATH ?? '')
						.split(path.delimiter)
						.filter((folder) => path.resolve(folder) !== '/usr/bin')
						.join(path.delimiter),
				}
			: env;
	const missing = required.filter(([, commands]) => !commands.some((c) => isOnPath(c, searched)));
	if (missing.length === 0) return;
	const hint =
		INSTALL_HINTS[platform] ?? "your system's packages for Python 3, make and a C/C++ compiler";
	throw new Error(
		[
			`Missing ${missing.map(([name, commands]) => `${name} (${commands.join(', ')})`).join(', ')}.`,
			'Installing n8n builds its sqlite3 module from source with node-gyp, which needs Python 3, make and a C/C++ compiler.',
			`Install them, then run this again: ${hint}.`,
		].join('\n'),
	);
}
