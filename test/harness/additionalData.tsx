import type { IWorkflowExecuteAdditionalData } from 'n8n-workflow';

import type { CredentialsHelper } from './CredentialsHelper';

/** What of n8n's per-execution context a community node can reach; the rest is refused loudly rather than faked. */
export function additionalData(
	credentialsHelper: CredentialsHelper,
	extra: Partial<IWorkflowExecuteAdditionalData> = {},
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		restartExecutionId: undefined,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		variables: {},
		userId: 'harness-user',
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not available in the harness');
		},
		getRunExecutionData: async () => undefined,
		logAiEvent: () => undefined,
		startRunnerTask: async () => {
			throw new Error('Task runners are not available in the harness');
		},
		...extra,
	} as unknown as IWorkflowExecuteAdditionalData;
}
