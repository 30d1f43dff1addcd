import { isolateUserFolder } from './harness/isolateUserFolder';
import { useNativeRegexEngine } from './harness/nativeRegexEngine';

isolateUserFolder();
useNativeRegexEngine();

// Node processes a test starts (a time zone check, the sandbox's CLI) load the TypeScript sources
// as jest does.
const register = `--require ${JSON.stringify(require.resolve('./harness/register.js'))}`;
if (!process.env.NODE_OPTIONS?.includes(register))
	process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} ${register}`.trim();
