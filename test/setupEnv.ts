import { isolateUserFolder } from './harness/isolateUserFolder';

isolateUserFolder();
