import { useLoggedWarnings } from './listRounds';

const sleeping = jest.requireActual<{ sleep: (ms: number) => Promise<void> }>('@n8n/utils/sleep');

/** n8n's waits return at once for the enclosing block (no test waits on a clock); the node's warnings are collected. */
export function useWarningsWithoutWaits(): string[] {
	beforeEach(() => void jest.spyOn(sleeping, 'sleep').mockResolvedValue(undefined));
	return useLoggedWarnings();
}
