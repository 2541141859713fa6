import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunction,
	ICredentialTestRequest,
	INode,
	INodeCredentialTestResult,
	INodeParameters,
	INodeType,
	INodeTypes,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers, Workflow } from 'n8n-workflow';

import type { LogEntry } from '../harness';
import { packageCredentialTypes, packageNodeTypes, runWorkflow } from '../harness';
import { ensureRuntime, withLogCapture } from '../harness/runtime';

/**
 * Runs a credential's Test the way n8n's CredentialsTester does (packages/cli
 * credentials-tester.service.ts): the credential type's declarative `test` when it has one, else the
 * `methods.credentialTest[testedBy]` of a node that declares the credential with `testedBy`, called
 * with n8n-core's CredentialTestContext as `this`.
 *
 * `declared` is the credential's `test` as the caller read it (`new EngagementPlatformApi().test`):
 * undefined for a credential tested by its nodes. The result is what n8n's editor shows: OK, or Error
 * with its message (the editor shows no message for OK, so none is kept).
 */
export async function testCredential(
	declared: ICredentialTestRequest | undefined,
	credentials: ICredentialDataDecryptedObject,
	credentialType = 'engagementPlatformApi',
): Promise<{ status: 'OK' } | { status: 'Error'; message: string }> {
	const { result } = await runCredentialTest(credentialType, credentials, declared);
	return result.status === 'OK' ? { status: 'OK' } : { status: 'Error', message: result.message };
}

/** The Test's whole result, and every line n8n's logger got while it ran. */
export async function runCredentialTest(
	credentialType: string,
	data: ICredentialDataDecryptedObject,
	declared = packageCredentialTypes()[credentialType]?.test,
): Promise<{ result: INodeCredentialTestResult; logs: LogEntry[] }> {
	if (declared) return await runDeclarativeTest(declared, data, credentialType);
	ensureRuntime();
	const logs: LogEntry[] = [];
	const result = await withLogCapture(
		logs,
		async () =>
			await testedBy(credentialType).call(new CredentialTestContext(), {
				id: 'credential-test',
				name: 'Credential under test',
				type: credentialType,
				data: asTheTesterReadsIt(credentialType, data),
			}),
	);
	return { result, logs };
}

/**
 * The data as n8n's tester hands it to the test (CredentialsHelper.applyDefaultsAndOverwrites, with no
 * workflow to resolve against): the type's defaults added, and expressions resolved, so a value
 * starting with "=" is read as an expression.
 */
function asTheTesterReadsIt(
	credentialType: string,
	data: ICredentialDataDecryptedObject,
): ICredentialDataDecryptedObject {
	const type = packageCredentialTypes()[credentialType];
	const withDefaults = NodeHelpers.getNodeParameters(type.properties, data as INodeParameters, true, false, null, null);
	const mockNode: INode = { id: 'mock', name: '', type: 'mock', typeVersion: 1, position: [0, 0], parameters: {} };
	const mockType: INodeType = {
		description: {
			displayName: 'Mock',
			name: 'mock',
			group: [],
			version: 1,
			description: '',
			defaults: { name: 'Mock' },
			inputs: [],
			outputs: [],
			properties: [],
		},
	};
	const nodeTypes: INodeTypes = {
		getByName: () => mockType,
		getByNameAndVersion: () => mockType,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [mockNode], connections: {}, active: false, nodeTypes });
	return workflow.expression.getComplexParameterValue(
		mockNode,
		(withDefaults ?? {}) as INodeParameters,
		'internal',
		{},
		undefined,
		undefined,
		withDefaults ?? {},
	) as ICredentialDataDecryptedObject;
}

/** The function the first node declaring the credential with `testedBy` names, as n8n finds it. */
function testedBy(credentialType: string): ICredentialTestFunction {
	for (const nodeType of Object.values(packageNodeTypes()) as INodeType[]) {
		for (const { name, testedBy: testName } of nodeType.description.credentials ?? []) {
			if (name !== credentialType || typeof testName !== 'string') continue;
			const test = nodeType.methods?.credentialTest?.[testName];
			if (!test) throw new Error(`${nodeType.description.name} names the test ${testName} but has no such method`);
			return test;
		}
	}
	throw new Error(`no test for ${credentialType}: neither a declarative test nor a node's testedBy`);
}

/**
 * A declarative test, as n8n runs one: a temporary node whose only property routes the test request,
 * then the rules on the answer's status.
 */
async function runDeclarativeTest(
	test: ICredentialTestRequest,
	credentials: ICredentialDataDecryptedObject,
	credentialType: string,
): Promise<{ result: INodeCredentialTestResult; logs: LogEntry[] }> {
	const tester: INodeType = {
		description: {
			displayName: 'Credential Test',
			name: 'credentialTest',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: { name: 'Credential Test' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: credentialType, required: true }],
			properties: [
				{ displayName: 'Temp', name: 'temp', type: 'string', default: '', routing: { request: test.request } },
			],
		},
	};
	const run = await runWorkflow({
		nodes: [{ name: 'Test', type: 'credentialTest', parameters: {} }],
		connections: { Start: { main: [[{ node: 'Test', type: 'main', index: 0 }]] } },
		nodeTypes: { credentialTest: tester },
		credentials: { [credentialType]: credentials },
	});
	if (!run.error) return { result: { status: 'OK', message: 'Connection successful!' }, logs: run.logs };
	const statusCode = Number((run.error as { httpCode?: string }).httpCode);
	const rule = test.rules?.find((r) => r.type === 'responseCode' && r.properties.value === statusCode);
	return { result: { status: 'Error', message: rule?.properties.message ?? run.error.message }, logs: run.logs };
}
