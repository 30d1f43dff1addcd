import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

const sleeping = jest.requireActual<{ sleep: (ms: number) => Promise<void> }>('@n8n/utils/sleep');

/** n8n's waits return at once for the enclosing block (no test waits on a clock); the node's warnings are collected. */
export function useWarningsWithoutWaits(): string[] {
	const warnings: string[] = [];
	beforeEach(() => {
		warnings.length = 0;
		jest
			.spyOn(Container.get(Logger), 'warn')
			.mockImplementation((message: string) => void warnings.push(message));
		jest.spyOn(sleeping, 'sleep').mockResolvedValue(undefined);
	});
	afterEach(() => jest.restoreAllMocks());
	return warnings;
}
