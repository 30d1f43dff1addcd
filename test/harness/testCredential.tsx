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

// The Test button as n8n's CredentialsTester runs it: the test request through n8n-core's RoutingNode and
// `authenticate()`, then its responseCode / responseSuccessBody rules.
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
	const node = workflowNode(
		'Temp-Node',
		'temp',
		{},
		{ credentials: { [typeName]: { id: 'harness', name: 'harness' } } },
	);
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
	const rules = (credentialType.test.rules ?? []) as Array<{
		type: string;
		properties: { value?: unknown; key?: string; message: string };
	}>;
	let response: Awaited<ReturnType<RoutingNode['runNode']>>;
	try {
		response = await routingNode.runNode();
	} catch (error) {
		const cause = (
			error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }
		).cause;
		if (cause?.response) {
			const { status, statusText } = cause.response;
			const rule = rules.find((r) => r.type === 'responseCode' && r.properties.value === status);
			const message =
				rule?.properties.message ?? (statusText || `Received HTTP status code: ${status}`);
			return { status: 'Error', message, httpCode: status };
		}
		return { status: 'Error', message: cause?.code ?? (error as Error).message };
	}
	const json = response?.[0]?.[0]?.json as unknown;
	for (const rule of rules) {
		if (rule.type !== 'responseSuccessBody' || rule.properties.key === undefined) continue;
		// lodash `get` on one key, as n8n reads it.
		const value =
			json !== null && json !== undefined
				? (json as Record<string, unknown>)[rule.properties.key]
				: undefined;
		if (value === rule.properties.value)
			return { status: 'Error', message: rule.properties.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
