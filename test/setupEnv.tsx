import { isolateUserFolder } from './harness/isolateUserFolder';
import { useNativeRegexEngine } from './harness/nativeRegexEngine';

isolateUserFolder();
useNativeRegexEngine();
