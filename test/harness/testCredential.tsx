import { ExecuteContext, RoutingNode } from 'n8n-core';
import {
	createRunExecutionData,
	Workflow,
	type ICredentialDataDecryptedObject,
	type INodeCredentialTestResult,
	type INodeType,
} from 'n8n-workflow';

import { additionalData } from './additionalData';
import { CredentialsHelper } from './CredentialsHelper';
import { loadPackageTypes } from './packageTypes';
import { workflowNode } from './workflows';

/**
 * Runs a credential's `test` request the way n8n's server does when the user clicks "Test"
 * (CredentialsTester): a temporary node whose only property routes the test request, run by
 * n8n-core's RoutingNode, so expressions like `={{$credentials.baseUrl}}` resolve and the request
 * passes through `authenticate()` exactly as in n8n. Non-2xx answers become `status: 'Error'`.
 */
export async function testCredential(
	typeName: string,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult & { httpCode?: number }> {
	const { nodeTypes, credentialTypes } = await loadPackageTypes();
	const credentialType = credentialTypes.get(typeName);
	if (!credentialType?.test) throw new Error(`Credential type ${typeName} has no test request`);
	const credentialsHelper = new CredentialsHelper(credentialTypes, { [typeName]: data });
	const decrypted = credentialsHelper.withDefaults(typeName);

	const tempType: INodeType = {
		description: {
			displayName: 'Temp',
			name: 'temp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: typeName, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: credentialType.test.request },
					default: '',
				},
			],
		},
	};
	const node = workflowNode('Temp-Node', 'temp', {}, { credentials: { [typeName]: { id: 'harness', name: 'harness' } } });
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: () => tempType,
			getByNameAndVersion: () => tempType,
			getKnownTypes: () => nodeTypes.getKnownTypes(),
		},
	});
	const executionData = additionalData(credentialsHelper);
	const runExecutionData = createRunExecutionData({ executionData: null });
	const context = new ExecuteContext(
		workflow,
		node,
		executionData,
		'internal',
		runExecutionData,
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const routingNode = new RoutingNode(context, tempType, {
		id: 'harness',
		name: 'harness',
		type: typeName,
		data: decrypted,
	});
	try {
		await routingNode.runNode();
	} catch (error) {
		const cause = (error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }).cause;
		if (cause?.response) {
			return {
				status: 'Error',
				message: cause.response.statusText || `Received HTTP status code: ${cause.response.status}`,
				httpCode: cause.response.status,
			};
		}
		return { status: 'Error', message: cause?.code ?? (error as Error).message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
