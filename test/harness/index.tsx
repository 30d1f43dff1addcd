export { loadPackageTypes, PACKAGE_NAME } from './packageTypes';
export { runWorkflow, type WorkflowJson, type WorkflowRun } from './runWorkflow';
export { testCredential } from './testCredential';
export { repoPath, repoRoot } from './repoPath';
export {
	chainWorkflow,
	CREDENTIALS_REF,
	itemsWorkflow,
	singleNodeWorkflow,
	workflowNode,
} from './workflows';
export { isolateUserFolder } from './isolateUserFolder';
export { listSearch } from './listSearch';
export { startWebhookReceiver, type WebhookReceiver } from './webhookReceiver';
export { createPoller, type Poller } from './pollTrigger';
export { useNativeRegexEngine } from './nativeRegexEngine';
export { credentialsFor, useSandbox, type SandboxFixture } from './useSandbox';
